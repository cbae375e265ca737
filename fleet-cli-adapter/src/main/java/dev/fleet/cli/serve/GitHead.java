package dev.fleet.cli.serve;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The revision a checkout is at, read from its git files alone. Starting {@code git} would put a
 * child process beside every server (and a server must never start processes that could look like
 * fleet members), so this reads {@code HEAD}, loose refs and {@code packed-refs} itself.
 *
 * <p>Handles a {@code .git} directory, a {@code .git} file ({@code gitdir: ...}, as in worktrees and
 * submodules) with its {@code commondir}, a detached HEAD (SHA-1 or SHA-256 object id) and a
 * symbolic HEAD resolved through loose refs or {@code packed-refs}. Anything it cannot read or
 * does not understand gives an empty result: an unknown revision is reported as unknown, never
 * guessed. Anyone may plant these files (a {@code .git} in a shared folder is found from every folder
 * under it), so only regular files are read, and only so far ({@link #firstLine}).
 */
public final class GitHead {

    private static final Pattern OBJECT_ID = Pattern.compile("[0-9a-fA-F]{40}|[0-9a-fA-F]{64}");
    private static final String REF_PREFIX = "ref:";
    private static final String GITDIR_PREFIX = "gitdir:";
    /** Symbolic refs may point at symbolic refs; git itself stops at 5 levels. */
    private static final int MAX_SYMREF_DEPTH = 5;
    /** A line of HEAD, a ref, a {@code .git} file or {@code packed-refs}: an id, a ref name or a path, at most. */
    private static final int MOST_LINE_BYTES = 8192;
    /** {@code packed-refs} is read this far: some 600,000 refs, where a huge repository has tens of thousands. */
    private static final long MOST_PACKED_BYTES = 64L << 20;

    private GitHead() {
    }

    /**
     * The object id HEAD names for the repository containing {@code repositoryRoot} (the directory
     * itself or its nearest ancestor with a {@code .git}, as git discovers it), lower-cased.
     */
    public static Optional<String> read(Path repositoryRoot) {
        if (repositoryRoot == null) {
            return Optional.empty();
        }
        try {
            Optional<Path> gitDir = findGitDir(repositoryRoot.toAbsolutePath().normalize());
            return gitDir.isPresent() ? readHead(gitDir.get()) : Optional.empty();
        } catch (IOException | UncheckedIOException | InvalidPathException | SecurityException e) {
            return Optional.empty();
        }
    }

    private static Optional<Path> findGitDir(Path start) throws IOException {
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            Path dotGit = dir.resolve(".git");
            if (Files.isDirectory(dotGit)) {
                return Optional.of(dotGit);
            }
            if (Files.isRegularFile(dotGit)) {
                return gitDirFromFile(dir, dotGit);
            }
        }
        return Optional.empty();
    }

    /** A {@code .git} file holds {@code gitdir: <path>}, relative to the directory holding the file. */
    private static Optional<Path> gitDirFromFile(Path dir, Path dotGitFile) throws IOException {
        String content = firstLine(dotGitFile);
        if (content == null || !content.startsWith(GITDIR_PREFIX)) {
            return Optional.empty();
        }
        String target = content.substring(GITDIR_PREFIX.length()).strip();
        if (target.isEmpty()) {
            return Optional.empty();
        }
        Path gitDir = dir.resolve(target).normalize();
        return Files.isDirectory(gitDir) ? Optional.of(gitDir) : Optional.empty();
    }

    private static Optional<String> readHead(Path gitDir) throws IOException {
        Path commonDir = commonDir(gitDir);
        String value = firstLine(gitDir.resolve("HEAD"));
        for (int depth = 0; value != null && depth <= MAX_SYMREF_DEPTH; depth++) {
            if (OBJECT_ID.matcher(value).matches()) {
                return Optional.of(value.toLowerCase(Locale.ROOT));
            }
            if (!value.startsWith(REF_PREFIX)) {
                return Optional.empty();
            }
            String ref = value.substring(REF_PREFIX.length()).strip();
            if (!isSafeRefName(ref)) {
                return Optional.empty();
            }
            value = resolveRef(gitDir, commonDir, ref);
        }
        return Optional.empty();
    }

    /**
     * A linked worktree keeps its own HEAD but shares refs with the main repository, named by the
     * {@code commondir} file (usually relative to the worktree's git dir).
     */
    private static Path commonDir(Path gitDir) throws IOException {
        Path file = gitDir.resolve("commondir");
        if (!Files.isRegularFile(file)) {
            return gitDir;
        }
        String target = firstLine(file);
        if (target == null || target.isBlank()) {
            return gitDir;
        }
        Path common = gitDir.resolve(target.strip()).normalize();
        return Files.isDirectory(common) ? common : gitDir;
    }

    /** The loose ref's content (which may itself be symbolic), else the packed one's id, else null. */
    private static String resolveRef(Path gitDir, Path commonDir, String ref) throws IOException {
        // Per-worktree refs (HEAD-like pseudo refs, refs/bisect) live in the worktree's git dir, the rest in the common dir.
        for (Path base : gitDir.equals(commonDir) ? new Path[] {gitDir} : new Path[] {gitDir, commonDir}) {
            Path loose = base.resolve(ref);
            if (Files.isRegularFile(loose)) {
                return firstLine(loose);
            }
        }
        return packedRef(commonDir.resolve("packed-refs"), ref);
    }

    /**
     * {@code packed-refs}: a {@code #} header, then {@code <id> <ref>} lines, each maybe followed by a
     * {@code ^<peeled id>} line; read up to {@value #MOST_PACKED_BYTES} bytes, a line longer than
     * {@value #MOST_LINE_BYTES} skipped.
     */
    private static String packedRef(Path packedRefs, String ref) throws IOException {
        if (!Files.isRegularFile(packedRefs)) {
            return null;
        }
        try (InputStream in = new BufferedInputStream(Files.newInputStream(packedRefs))) {
            byte[] line = new byte[MOST_LINE_BYTES];
            int length = 0;
            boolean tooLong = false;
            for (long left = MOST_PACKED_BYTES; left > 0; left--) {
                int b = in.read();
                if (b >= 0 && b != '\n') {
                    tooLong |= length == line.length;
                    length = tooLong ? length : put(line, length, b);
                    continue;
                }
                // A line ends at its newline, or at the end of the file (a last line without one).
                String id = tooLong ? null : packedId(new String(line, 0, length, StandardCharsets.UTF_8), ref);
                if (id != null || b < 0) {
                    return id;
                }
                length = 0;
                tooLong = false;
            }
        }
        return null;
    }

    private static int put(byte[] line, int length, int b) {
        line[length] = (byte) b;
        return length + 1;
    }

    /** The id of a {@code packed-refs} line when it names {@code ref}, else null. */
    private static String packedId(String line, String ref) {
        if (line.isEmpty() || line.startsWith("#") || line.startsWith("^")) {
            return null;
        }
        int space = line.indexOf(' ');
        String named = line.endsWith("\r") ? line.substring(space + 1, line.length() - 1) : line.substring(space + 1);
        return space > 0 && named.equals(ref) ? line.substring(0, space) : null;
    }

    /** Only names under {@code refs/} without {@code ..}: a HEAD file must not make us read outside the repository. */
    private static boolean isSafeRefName(String ref) {
        return ref.startsWith("refs/") && !ref.contains("..") && !ref.contains("\\") && !ref.contains("\0");
    }

    /**
     * The first line of {@code file}, stripped, when it is a regular file and the line is at most
     * {@value #MOST_LINE_BYTES} bytes; else null. A FIFO or a device planted as a git file is never
     * opened (it could block the read for ever, or never end), and a huge file is never read whole.
     */
    private static String firstLine(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        byte[] head;
        try (InputStream in = Files.newInputStream(file)) {
            head = in.readNBytes(MOST_LINE_BYTES + 1);
        }
        int end = 0;
        while (end < head.length && head[end] != '\n') {
            end++;
        }
        return end > MOST_LINE_BYTES ? null : new String(head, 0, end, StandardCharsets.UTF_8).strip();
    }
}
