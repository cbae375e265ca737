package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real repositories made by {@code git} (tests may start processes; {@link GitHead} never does). */
class GitHeadTest {

    @TempDir
    Path temp;

    @Test
    void aBranchHeadResolvesThroughItsLooseRef() throws Exception {
        Path repo = repositoryWithCommits("repo", 2);

        assertTrue(Files.isRegularFile(repo.resolve(".git/refs/heads/main")));
        assertEquals(Optional.of(git(repo, "rev-parse", "HEAD")), GitHead.read(repo));
    }

    @Test
    void aBranchHeadResolvesThroughPackedRefs() throws Exception {
        Path repo = repositoryWithCommits("repo", 2);
        git(repo, "pack-refs", "--all");

        assertFalse(Files.exists(repo.resolve(".git/refs/heads/main")), "the loose ref is gone");
        assertTrue(Files.readString(repo.resolve(".git/packed-refs")).contains("refs/heads/main"));
        assertEquals(Optional.of(git(repo, "rev-parse", "HEAD")), GitHead.read(repo));
    }

    /** Its last line without a newline, and CRLF line ends (as an editor or a copy may leave them), read as git reads them. */
    @Test
    void packedRefsWithoutAFinalNewlineOrWithCrlfResolve() throws Exception {
        Path repo = repositoryWithCommits("repo", 1);
        git(repo, "pack-refs", "--all");
        Path packed = repo.resolve(".git/packed-refs");
        String written = Files.readString(packed);
        String head = git(repo, "rev-parse", "HEAD");

        Files.writeString(packed, written.stripTrailing());
        assertEquals(Optional.of(head), GitHead.read(repo), "no final newline");
        Files.writeString(packed, written.replace("\n", "\r\n"));
        assertEquals(Optional.of(head), GitHead.read(repo), "CRLF");
    }

    @Test
    void aDetachedHeadIsTheObjectIdItself() throws Exception {
        Path repo = repositoryWithCommits("repo", 3);
        String first = git(repo, "rev-parse", "HEAD~2");
        git(repo, "checkout", "--quiet", "--detach", first);

        assertEquals(first, Files.readString(repo.resolve(".git/HEAD")).strip());
        assertEquals(Optional.of(first), GitHead.read(repo));
    }

    @Test
    void aLinkedWorktreeFollowsItsGitFileAndCommonDir() throws Exception {
        Path repo = repositoryWithCommits("repo", 1);
        Path worktree = temp.resolve("worktree");
        git(repo, "worktree", "add", "--quiet", "-b", "feature", worktree.toString());
        git(worktree, "commit", "--quiet", "--allow-empty", "-m", "on feature");
        git(repo, "pack-refs", "--all");

        assertTrue(Files.isRegularFile(worktree.resolve(".git")), "a worktree has a .git file");
        String head = git(worktree, "rev-parse", "HEAD");
        assertEquals(Optional.of(head), GitHead.read(worktree));
        assertEquals(Optional.of(git(repo, "rev-parse", "HEAD")), GitHead.read(repo));
        assertFalse(head.equals(GitHead.read(repo).orElseThrow()));
    }

    @Test
    void aSubdirectoryFindsItsRepositoryAsGitDoes() throws Exception {
        Path repo = repositoryWithCommits("repo", 1);
        Path nested = Files.createDirectories(repo.resolve("src/main"));

        assertEquals(Optional.of(git(repo, "rev-parse", "HEAD")), GitHead.read(nested));
    }

    @Test
    void aSha256RepositoryGivesA64HexId() throws Exception {
        Path repo = Files.createDirectories(temp.resolve("sha256"));
        assumeTrue(tryGit(repo, "init", "--quiet", "--object-format=sha256"), "git supports sha256 repositories");
        git(repo, "commit", "--quiet", "--allow-empty", "-m", "one");

        String head = git(repo, "rev-parse", "HEAD");
        assertEquals(64, head.length());
        assertEquals(Optional.of(head), GitHead.read(repo));
    }

    @Test
    void anythingUnreadableIsUnknown() throws Exception {
        Path unborn = Files.createDirectories(temp.resolve("unborn"));
        git(unborn, "init", "--quiet");
        Path plain = Files.createDirectories(temp.resolve("plain"));
        Path garbled = repositoryWithCommits("garbled", 1);
        Files.writeString(garbled.resolve(".git/HEAD"), "ref: ../../../etc/passwd\n");
        Path brokenLink = Files.createDirectories(temp.resolve("broken-link"));
        Files.writeString(brokenLink.resolve(".git"), "gitdir: /nonexistent/worktrees/x\n");

        assertEquals(Optional.empty(), GitHead.read(unborn), "no commit yet");
        assertEquals(Optional.empty(), GitHead.read(plain), "not a repository");
        assertEquals(Optional.empty(), GitHead.read(garbled), "a ref outside refs/");
        assertEquals(Optional.empty(), GitHead.read(brokenLink), "a .git file naming nothing");
        assertEquals(Optional.empty(), GitHead.read(temp.resolve("missing")));
        assertEquals(Optional.empty(), GitHead.read(null));
    }

    /**
     * A checkout's git files are anyone's to plant (a {@code .git} in a shared folder is found from every
     * folder under it): a FIFO, a device or a huge file is an unknown revision, never a wait for ever nor a
     * heap exhausted (a FIFO HEAD hung serve and mcp-config; /dev/zero threw OutOfMemoryError).
     */
    @Test
    void hostileGitFilesAreUnknownWithoutWaitingOrFillingTheHeap() throws Exception {
        Path fifoHead = Files.createDirectories(temp.resolve("fifo/.git"));
        Process mkfifo = new ProcessBuilder("mkfifo", fifoHead.resolve("HEAD").toString()).start();
        assumeTrue(mkfifo.waitFor() == 0, "mkfifo unavailable");
        Path zeroHead = Files.createDirectories(temp.resolve("zero/.git"));
        Files.createSymbolicLink(zeroHead.resolve("HEAD"), Path.of("/dev/zero"));
        Path hugeRef = repositoryWithCommits("huge-ref", 1);
        sparse(hugeRef.resolve(".git/refs/heads/main"), 3L << 30);
        Path hugePacked = repositoryWithCommits("huge-packed", 1);
        git(hugePacked, "pack-refs", "--all");
        sparse(hugePacked.resolve(".git/packed-refs"), 3L << 30);
        Path longGitFile = Files.createDirectories(temp.resolve("long-git-file"));
        Files.writeString(longGitFile.resolve(".git"), "gitdir: " + "x".repeat(20_000) + "\n");

        assertTimeoutPreemptively(Duration.ofMinutes(1), () -> {
            assertEquals(Optional.empty(), GitHead.read(fifoHead.getParent().resolve("sub")),
                    "a FIFO HEAD, found upwards");
            assertEquals(Optional.empty(), GitHead.read(zeroHead.getParent()), "HEAD a link to /dev/zero");
            assertEquals(Optional.empty(), GitHead.read(hugeRef), "a 3 GiB loose ref");
            assertEquals(Optional.empty(), GitHead.read(hugePacked), "a 3 GiB packed-refs");
            assertEquals(Optional.empty(), GitHead.read(longGitFile), "a .git file of one 20 KB line");
        });
    }

    /** {@code file} made anew, {@code bytes} long without writing them (zeros, no line end, taking no disk). */
    private static void sparse(Path file, long bytes) throws IOException {
        Files.deleteIfExists(file);
        try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(bytes);
        }
    }

    private Path repositoryWithCommits(String name, int commits) throws Exception {
        Path repo = Files.createDirectories(temp.resolve(name));
        git(repo, "init", "--quiet");
        for (int i = 1; i <= commits; i++) {
            git(repo, "commit", "--quiet", "--allow-empty", "-m", "commit " + i);
        }
        return repo;
    }

    private static String git(Path dir, String... args) throws IOException, InterruptedException {
        Process process = start(dir, args);
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, process.waitFor(), () -> "git " + String.join(" ", args) + " failed");
        return out;
    }

    private static boolean tryGit(Path dir, String... args) throws IOException, InterruptedException {
        Process process = start(dir, args);
        process.getInputStream().readAllBytes();
        return process.waitFor() == 0;
    }

    private static Process start(Path dir, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("git", "-c", "user.name=Fleet Test",
                "-c", "user.email=fleet@example.invalid", "-c", "init.defaultBranch=main",
                "-c", "commit.gpgsign=false"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        // Insulate from the machine's git configuration.
        builder.environment().put("GIT_CONFIG_NOSYSTEM", "1");
        builder.environment().put("GIT_CONFIG_GLOBAL", "/dev/null");
        return builder.start();
    }
}
