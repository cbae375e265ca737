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
 * the owner, nor anyone reading a registry root owns, nor anyone where both files exist or could not
 * be created anyway. Files the owner may write are no harm: the registry's mode gives write to the
 * group, when they take the registry's group (a setgid folder, or the same primary group) and the
 * owner is taken to be in it, or else to others. Linux only (who creates is read from {@code /proc}).
 * What remains is a moment's race: the owner's writer may remove both files between this look and
 * SQLite's open.
 */
final class ForeignWalFiles {

    /** Where the kernel says who this process is. */
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
            int uid = Creator.ID.uid();
            int owner = number(real, "uid");
            if (uid == 0 || uid == owner || owner == 0) {
                return Optional.empty(); // root creates for the owner, and an owner root writes anything
            }
            int mode = number(real, "mode");
            int createdGroup = (number(folder, "mode") & SET_GID) != 0 ? number(folder, "gid") : Creator.ID.gid();
            // The owner is taken to be in the registry's group (its files' group where it made them): then
            // the group's bits apply to it, else the others' bits.
            int ownersBit = createdGroup == number(real, "gid") ? GROUP_WRITE : OTHERS_WRITE;
            if ((mode & ownersBit) != 0) {
                return Optional.empty();
            }
            return Optional.of("this user (uid " + uid + ") would create its -shm index and -wal log as its own, "
                    + "which the registry's owner (uid " + owner + ") could not write, and the owner's servers could "
                    + "no longer write the registry: read it as its owner or root");
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

    /** Who this process creates files as, read once: the fourth value (fsuid, fsgid) of Uid: and Gid:. */
    private record Creator(int uid, int gid) {

        static final Creator ID = read();

        private static Creator read() {
            try {
                List<String> status = Files.readAllLines(STATUS);
                return new Creator(id(status, "Uid:"), id(status, "Gid:"));
            } catch (IOException | RuntimeException e) {
                return new Creator(0, 0); // no /proc: as root, refused nothing (SQLite's open says what it says)
            }
        }

        private static int id(List<String> status, String line) {
            String entry = status.stream().filter(l -> l.startsWith(line)).findFirst().orElseThrow();
            return Integer.parseInt(entry.substring(line.length()).trim().split("\\s+")[3]);
        }
    }

    private static int number(Path path, String attribute) throws IOException {
        return (Integer) Files.getAttribute(path, "unix:" + attribute);
    }
}
