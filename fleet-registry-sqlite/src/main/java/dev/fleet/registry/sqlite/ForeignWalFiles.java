package dev.fleet.registry.sqlite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Whether a read by this user would leave files beside the registry that its owner's servers could not
 * write. A read-only connection to a WAL-mode file creates the {@code -shm} index and {@code -wal} log
 * when they are missing (as they are between a fleet's writes: a writer's last close removes them),
 * and cannot remove them when it closes. Made by another user, with the registry's mode, they are that
 * user's: in a folder both may write ({@code /tmp}), the owner's servers then fail every write
 * (SQLITE_READONLY) until someone deletes them, and the gate closes for everyone. So such a read is
 * refused beforehand, as a read is when it may not create them at all (docs/CONTRACT.md).
 *
 * <p>Nothing here opens the file: closing a descriptor of it would drop the POSIX locks SQLite holds on
 * it in this process. Root is never refused (SQLite gives what root creates to the file's owner), nor
 * the owner, nor anyone where both files exist or could not be created anyway. Files created with
 * write access for the owner's group (when they take the registry's group: a setgid folder or the
 * same primary group) or for everyone are no harm. What remains is a moment's race: the owner's
 * writer may remove both files between this look and SQLite's open.
 */
final class ForeignWalFiles {

    /** Where the kernel says who this process creates files as: the fourth value of Uid: and Gid: (fsuid, fsgid). */
    private static final Path STATUS = Path.of("/proc/self/status");
    private static final int GROUP_WRITE = 0020;
    private static final int OTHERS_WRITE = 0002;
    private static final int SET_GID = 02000;

    private ForeignWalFiles() {
    }

    /** Why this user's read of {@code file} would leave files its owner cannot write, or empty. */
    static Optional<String> refusal(Path file) {
        try {
            Path real = file.toRealPath();
            Path folder = real.getParent();
            if (folder == null || bothExist(real) || !Files.isWritable(folder)) {
                return Optional.empty();
            }
            int uid = creatorId("Uid:");
            int owner = number(real, "uid");
            if (uid == 0 || uid == owner) {
                return Optional.empty();
            }
            int mode = number(real, "mode");
            int createdGroup = (number(folder, "mode") & SET_GID) != 0 ? number(folder, "gid") : creatorId("Gid:");
            boolean ownerMayWrite = (mode & OTHERS_WRITE) != 0
                    || (mode & GROUP_WRITE) != 0 && createdGroup == number(real, "gid");
            if (ownerMayWrite) {
                return Optional.empty();
            }
            return Optional.of("this user (uid " + uid + ") would create its -shm index and -wal log as its own, "
                    + "which the registry's owner (uid " + owner + ") could not write, and its servers could no "
                    + "longer register: read it as its owner or root");
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // no POSIX owners to compare here: SQLite's open says what it says
        }
    }

    /**
     * Why a write may have failed, in words an operator can act on: a {@code -shm} index or {@code -wal}
     * log beside the registry that this user may not write (another user's read left it, before such
     * reads were refused, or another tool's); SQLite itself says only "readonly" or "cannot commit".
     */
    static Optional<String> blockingWrites(Path file) {
        try {
            Path real = file.toRealPath();
            for (String suffix : List.of("-shm", "-wal")) {
                Path beside = real.resolveSibling(real.getFileName() + suffix);
                if (Files.exists(beside, LinkOption.NOFOLLOW_LINKS) && !Files.isWritable(beside)) {
                    return Optional.of(beside.getFileName() + " beside it belongs to uid " + number(beside, "uid")
                            + " and this user may not write it (another user's read left it?): remove "
                            + real.getFileName() + "-shm and -wal while no fleet server has the registry open");
                }
            }
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static boolean bothExist(Path real) {
        return Files.exists(real.resolveSibling(real.getFileName() + "-shm"), LinkOption.NOFOLLOW_LINKS)
                && Files.exists(real.resolveSibling(real.getFileName() + "-wal"), LinkOption.NOFOLLOW_LINKS);
    }

    private static int creatorId(String line) throws IOException {
        for (String entry : Files.readAllLines(STATUS)) {
            if (entry.startsWith(line)) {
                String[] ids = entry.substring(line.length()).trim().split("\\s+");
                return Integer.parseInt(ids[3]);
            }
        }
        throw new IOException("no " + line + " in " + STATUS);
    }

    private static int number(Path path, String attribute) throws IOException {
        return (Integer) Files.getAttribute(path, "unix:" + attribute);
    }
}
