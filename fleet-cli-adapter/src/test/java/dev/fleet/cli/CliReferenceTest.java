package dev.fleet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/CLI.md is what the commands render now. The tests run before the build writes the file anew,
 * so a commit that changed a command without the reference fails here rather than drifting.
 */
class CliReferenceTest {

    private static final Path COMMITTED = Path.of("..", "docs", "CLI.md");

    @Test
    void theCommittedReferenceIsWhatTheCommandsRenderNow() throws Exception {
        List<String> rendered = CliReference.markdown().lines().toList();
        List<String> committed = Files.readString(COMMITTED, StandardCharsets.UTF_8).lines().toList();
        for (int i = 0; i < Math.min(rendered.size(), committed.size()); i++) {
            assertEquals(rendered.get(i), committed.get(i), "docs/CLI.md line " + (i + 1) + " is stale; "
                    + "`./mvnw -B -pl fleet-cli-adapter -am package -DskipTests` writes it anew, to be committed");
        }
        assertEquals(rendered.size(), committed.size(), "docs/CLI.md's length in lines");
        assertEquals(CliReference.markdown(), Files.readString(COMMITTED, StandardCharsets.UTF_8), "line ends");
    }

    @Test
    void everyVerbAndSubcommandHasASection() {
        String markdown = CliReference.markdown();
        for (String name : List.of("fleet", "fleet assess", "fleet serve", "fleet registry migrate",
                "fleet registry list", "fleet completion", "fleet help")) {
            assertTrue(markdown.contains("\n## " + name + "\n") || markdown.contains("\n### " + name + "\n"), name);
            assertTrue(markdown.contains("\nUsage: " + name + " "), name);
        }
    }

    /** The same file on every machine: no path of this one, no terminal styles, the fixed width. */
    @Test
    void theReferenceDependsOnNothingOfThisMachine() {
        String markdown = CliReference.markdown();
        for (String property : List.of("user.home", "user.dir", "java.io.tmpdir", "java.home")) {
            String path = System.getProperty(property);
            assertFalse(markdown.contains(path), property + " " + path + " is in the reference");
        }
        assertFalse(markdown.contains("\u001b["), "an ANSI style");
        assertTrue(markdown.lines().allMatch(line -> line.codePointCount(0, line.length()) <= CliReference.WIDTH),
                "every line fits " + CliReference.WIDTH + " columns");
    }
}
