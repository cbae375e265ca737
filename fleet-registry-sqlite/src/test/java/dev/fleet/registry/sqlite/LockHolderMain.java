package dev.fleet.registry.sqlite;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/**
 * A migration in a process of its own: takes the migration lock file's OS lock and writes its pid
 * as a migrating server does. Given a registry file too, it also holds that file's exclusive lock
 * in rollback-journal mode, as a first migration does before the file is in WAL mode (readers then
 * meet SQLITE_BUSY). Says "locked", then holds both until killed, or for the milliseconds given.
 *
 * <p>Arguments: {@code LOCK_FILE [REGISTRY [HOLD_MILLIS]]}.
 */
public final class LockHolderMain {

    private LockHolderMain() {
    }

    public static void main(String[] args) throws Exception {
        try (FileChannel channel = FileChannel.open(Path.of(args[0]), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
            channel.lock();
            channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)));
            if (args.length < 2) {
                sayLockedAndHold(Long.MAX_VALUE);
                return;
            }
            try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + Path.of(args[1]).toAbsolutePath());
                    Statement statement = connection.createStatement()) {
                statement.execute("PRAGMA journal_mode = DELETE");
                statement.execute("BEGIN EXCLUSIVE");
                statement.execute("CREATE TABLE migration_in_progress (step TEXT)");
                sayLockedAndHold(args.length > 2 ? Long.parseLong(args[2]) : Long.MAX_VALUE);
                statement.execute("ROLLBACK");
            }
        }
    }

    private static void sayLockedAndHold(long millis) throws InterruptedException {
        System.out.println("locked");
        System.out.flush();
        Thread.sleep(millis);
    }
}
