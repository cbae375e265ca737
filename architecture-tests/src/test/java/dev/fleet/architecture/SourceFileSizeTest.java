package dev.fleet.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No product source file is over 300 lines (issue 52's "no class over 300 lines", kept from then on):
 * a class that long does more than one thing. Counted in source lines, comments included, because a
 * reader reads them too; ArchUnit sees only bytecode, so this reads the modules' {@code src/main/java}.
 */
class SourceFileSizeTest {

    static final int MAX_LINES = 300;

    /** The product's source files over {@code limit} lines, under every module of {@code root}, with their counts. */
    static Map<String, Long> filesOver(Path root, int limit) throws IOException {
        Map<String, Long> offenders = new TreeMap<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path sources : modules.map(module -> module.resolve("src/main/java")).filter(Files::isDirectory).toList()) {
                try (Stream<Path> files = Files.walk(sources)) {
                    files.filter(file -> file.toString().endsWith(".java")).forEach(file -> {
                        long lines = lines(file);
                        if (lines > limit) {
                            offenders.put(root.relativize(file).toString(), lines);
                        }
                    });
                }
            }
        }
        return offenders;
    }

    @Test
    void noProductSourceFileIsOverThreeHundredLines() throws IOException {
        Path root = Path.of("").toAbsolutePath().getParent();
        assertTrue(Files.isDirectory(root.resolve("fleet-domain/src/main/java")), "the project's root: " + root);
        assertEquals(Collections.emptyMap(), filesOver(root, MAX_LINES));
    }

    @Test
    void aFileOfThreeHundredAndOneLinesIsReported(@TempDir Path root) throws IOException {
        Path sources = Files.createDirectories(root.resolve("some-module/src/main/java/example"));
        Files.writeString(sources.resolve("Long.java"), "class Long {}\n" + "//\n".repeat(MAX_LINES));
        Files.writeString(sources.resolve("Short.java"), "class Short {}\n" + "//\n".repeat(MAX_LINES - 1));
        assertEquals(Map.of("some-module/src/main/java/example/Long.java", 301L), filesOver(root, MAX_LINES));
    }

    private static long lines(Path file) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
