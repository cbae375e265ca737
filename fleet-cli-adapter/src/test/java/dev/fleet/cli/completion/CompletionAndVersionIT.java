package dev.fleet.cli.completion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.testing.FleetJar;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code fleet completion bash|zsh} and {@code fleet --version}, from the packaged jar. */
class CompletionAndVersionIT {

    private static final List<String> VERBS = List.of("assess", "watch", "wait", "dashboard", "serve", "registry",
            "processes", "host", "roster", "demo", "mcp-config", "completion", "help");

    @Test
    void theBashScriptParsesAndCompletesEveryVerb(@TempDir Path dir) throws Exception {
        FleetJar.Run run = FleetJar.run("completion", "bash");
        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals("", run.stderr());
        for (String verb : VERBS) {
            assertTrue(run.stdout().contains(verb), "the script knows " + verb);
        }
        assertTrue(run.stdout().contains("--keep-without-client"), "and serve's options");
        assertTrue(run.stdout().contains("--strays") && run.stdout().contains("(\"text\" \"json\" \"sh\")"),
                "and host's, its formats spelled as typed");
        Path script = Files.writeString(dir.resolve("fleet-completion.bash"), run.stdout());
        Process syntax = new ProcessBuilder("bash", "-n", script.toString()).redirectErrorStream(true).start();
        String output = new String(syntax.getInputStream().readAllBytes());
        assertTrue(syntax.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, syntax.exitValue(), output);

        // Sourced, it registers a completion for fleet and completes the verbs.
        Process sourced = new ProcessBuilder("bash", "-c", "source " + script + " && complete -p fleet"
                + " && COMP_WORDS=(fleet mcp-c) COMP_CWORD=1 COMP_LINE='fleet mcp-c' COMP_POINT=11"
                + " && _complete_fleet && printf '%s\\n' \"${COMPREPLY[@]}\"").redirectErrorStream(true).start();
        String completed = new String(sourced.getInputStream().readAllBytes());
        assertTrue(sourced.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, sourced.exitValue(), completed);
        assertTrue(completed.lines().anyMatch("mcp-config"::equals), completed);
    }

    @Test
    void theZshScriptIsTheSameScriptAndAnUnknownShellIsAUsageError() {
        FleetJar.Run zsh = FleetJar.run("completion", "zsh");
        assertEquals(0, zsh.exitCode(), zsh.stderr());
        assertEquals(FleetJar.run("completion", "bash").stdout(), zsh.stdout());
        assertTrue(zsh.stdout().contains("bashcompinit"), "under zsh it loads bash compatibility itself");
        FleetJar.Run fish = FleetJar.run("completion", "fish");
        assertEquals(2, fish.exitCode());
        assertEquals(1, fish.stderrLines().size(), fish.stderr());
    }

    @Test
    void versionNamesTheVersionAndTheCommitItWasBuiltFrom() throws Exception {
        FleetJar.Run run = FleetJar.run("--version");
        assertEquals(0, run.exitCode(), run.stderr());
        assertTrue(run.stdout().matches("fleet \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\(commit ([0-9a-f]{40}(-dirty)?"
                + "|unknown)\\)\\n"), run.stdout());
        Process git = new ProcessBuilder("git", "rev-parse", "HEAD").redirectErrorStream(true).start();
        String head = new String(git.getInputStream().readAllBytes()).trim();
        if (git.waitFor() == 0) {
            // Built from this checkout: unless a commit was made after the jar was built, it names HEAD.
            assertTrue(run.stdout().contains("(commit " + head), run.stdout() + " vs HEAD " + head);
        }
    }
}
