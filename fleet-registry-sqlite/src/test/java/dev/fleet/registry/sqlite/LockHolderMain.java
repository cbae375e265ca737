package dev.fleet.registry.sqlite;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A migration that stopped half way, in a process of its own: takes the migration lock file's OS
 * lock, writes its pid as a migrating server does, says "locked" and sleeps until killed.
 */
public final class LockHolderMain {

    private LockHolderMain() {
    }

    public static void main(String[] args) throws Exception {
        try (FileChannel channel = FileChannel.open(Path.of(args[0]), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
            channel.lock();
            channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)));
            System.out.println("locked");
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE);
        }
    }
}
