package dev.fleet.cli.roster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fleet.domain.Roster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The default server process patterns are written out, exactly, where an operator reads them: the
 * README (as the design asks) and docs/CONTRACT.md. Each shows them as a block of its own, one
 * pattern a line, right after the sentence that calls them the default; a change of the defaults
 * without the documents fails here.
 */
class DocumentedDefaultPatternsTest {

    @ParameterizedTest
    @ValueSource(strings = {"README.md", "docs/CONTRACT.md"})
    void theDocumentShowsExactlyTheEmbeddedDefaults(String document) throws Exception {
        List<String> lines = Files.readAllLines(Path.of("..").resolve(document), StandardCharsets.UTF_8);
        int first = lines.indexOf(Roster.DEFAULT_SERVER_PROCESS_PATTERNS.get(0));
        int end = lines.subList(Math.max(first, 0), lines.size()).indexOf("```") + Math.max(first, 0);
        assertEquals(Roster.DEFAULT_SERVER_PROCESS_PATTERNS, first < 0 ? List.of() : lines.subList(first, end),
                document + "'s block of default patterns");
    }
}
