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
 * the owner, nor anyone where both files exist or could not be created anyway. Files the owner may
 * open are no harm ({@link Created}): the kernel's {@code protected_regular} refuses them to it in a
 * sticky shared folder ({@code /tmp}) whatever their mode; elsewhere a root owner opens anything, and
 * another owner what the registry's mode lets it. Linux only (read from {@code /proc}).
 * What remains is a moment's race: the owner's writer may remove both files between this look and
 * SQLite's open.
 */
final class ForeignWalFiles {

    /** Where the kernel says who this process is. */
    private static final Path STATUS = Path.of("/proc/self/status");
    private static final int GROUP_WRITE = 0020;
    private static final int OTHERS_WRITE = 0002;
    private static final int SET_GID = 02000;
    private static final int STICKY = 01000;

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
            int folderMode = number(folder, "mode");
            Created created = new Created(Creator.ID.uid(), number(real, "uid"), number(real, "mode"),
                    (folderMode & SET_GID) != 0 ? number(folder, "gid") : Creator.ID.gid(), number(real, "gid"),
                    folderMode, number(folder, "uid"), ProtectedRegular.LEVEL);
            if (!created.ownerCannotWrite()) {
                return Optional.empty();
            }
            return Optional.of("this user (uid " + created.reader() + ") would create its -shm index and -wal log as "
                    + "its own, which the registry's owner (uid " + created.owner() + ") could not write, and the "
                    + "owner's servers could no longer write the registry: read it as its owner or root");
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // no POSIX owners to compare here: SQLite's open says what it says
        }
    }

    /**
     * The files a read would create, as the kernel will judge the owner's later open of them.
     *
     * @param reader who creates them (fsuid)
     * @param owner the registry's owner
     * @param mode the registry's mode, which SQLite gives them
     * @param group the group they take (a setgid folder's, else the reader's fsgid)
     * @param registryGroup the registry's group, which its owner is taken to be in
     * @param folderMode the folder's mode
     * @param folderOwner the folder's owner
     * @param protectedRegular {@code fs.protected_regular}
     */
    record Created(int reader, int owner, int mode, int group, int registryGroup, int folderMode, int folderOwner,
            int protectedRegular) {

        boolean ownerCannotWrite() {
            if (reader == 0 || reader == owner) {
                return false; // root creates for the owner (SQLite hands the files over), the owner for itself
            }
            // fs.protected_regular: in a sticky folder others (or, at 2, the group) may write, opening with
            // O_CREAT a file that neither the opener nor the folder's owner owns is refused, whatever the
            // file's mode and to root too; SQLite opens both files so.
            boolean othersWrite = (folderMode & OTHERS_WRITE) != 0;
            boolean groupWrite = (folderMode & GROUP_WRITE) != 0;
            if ((folderMode & STICKY) != 0 && reader != folderOwner
                    && (othersWrite && protectedRegular >= 1 || groupWrite && protectedRegular >= 2)) {
                return true;
            }
            if (owner == 0) {
                return false; // root writes any file its mode forbids
            }
            // The owner is taken to be in the registry's group: the group's bits apply to it where the files
            // take that group, else the others' bits.
            return (mode & (group == registryGroup ? GROUP_WRITE : OTHERS_WRITE)) == 0;
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
                Path beside = beside(real, suffix);
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
        return Files.exists(beside(real, "-shm"), LinkOption.NOFOLLOW_LINKS)
                && Files.exists(beside(real, "-wal"), LinkOption.NOFOLLOW_LINKS);
    }

    /** The file SQLite names {@code real} + {@code suffix}, beside the registry's resolved path as SQLite puts it. */
    private static Path beside(Path real, String suffix) {
        return real.resolveSibling(real.getFileName() + suffix);
    }

    /** {@code fs.protected_regular}, read once; 2 (the strictest) where it cannot be read. */
    private static final class ProtectedRegular {

        static final int LEVEL = read();

        private static int read() {
            try {
                return Integer.parseInt(Files.readString(Path.of("/proc/sys/fs/protected_regular")).trim());
            } catch (IOException | RuntimeException e) {
                return 2;
            }
        }
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
