package dev.fleet.registry.sqlite;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * The first 100 bytes of a registry file, SQLite's database header, read before SQLite opens it.
 * SQLite takes a file shorter than its header for an empty database (a one-byte file would read as
 * "no table"), and says nothing about why a WAL file cannot be opened read-only; both are told here.
 */
record SqliteHeader(long size, byte[] bytes) {

    static final int LENGTH = 100;
    private static final byte[] MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
    /** Header bytes 18 and 19: the file format's write and read versions, 2 for WAL. */
    private static final int WRITE_VERSION = 18;
    private static final int READ_VERSION = 19;
    private static final int WAL = 2;

    static SqliteHeader read(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocate(LENGTH);
            while (buffer.hasRemaining() && channel.read(buffer) > 0) {
                // until the header is complete or the file ends
            }
            return new SqliteHeader(channel.size(), Arrays.copyOf(buffer.array(), buffer.position()));
        }
    }

    /** Why SQLite cannot take this for a database, or null: an empty file is an empty database. */
    String damage() {
        if (size == 0) {
            return null;
        }
        if (bytes.length < MAGIC.length || !Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            return "not a SQLite database (no SQLite header)";
        }
        if (bytes.length < LENGTH) {
            return "truncated: " + size + " bytes, shorter than SQLite's " + LENGTH + "-byte header";
        }
        return null;
    }

    boolean wal() {
        return bytes.length > READ_VERSION && bytes[WRITE_VERSION] == WAL && bytes[READ_VERSION] == WAL;
    }
}
