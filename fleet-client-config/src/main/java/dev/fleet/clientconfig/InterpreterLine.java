package dev.fleet.clientconfig;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A script's {@code #!} line as Linux reads it (fs/binfmt_script.c): at most the first 256 bytes, the
 * interpreter's path up to the first blank, and everything after it, trimmed, as ONE optional argument
 * ({@code #!/bin/sh -e -x} passes {@code "-e -x"} whole).
 *
 * @param interpreter the interpreter's path as written
 * @param argument the optional argument, null when none
 */
record InterpreterLine(String interpreter, String argument) {

    /**
     * The file's interpreter line, if it is an executable regular file that starts with one; the file is
     * only read. The kernel runs no file without an execute bit, so such a file's head is never read:
     * {@code /proc/kmsg} (0400, regular to {@code stat}) as a project's command would keep a reader waiting.
     */
    static Optional<InterpreterLine> of(Path script) {
        if (!Files.isRegularFile(script) || !Files.isExecutable(script)) {
            return Optional.empty();
        }
        byte[] head;
        try {
            head = DeadlineReads.head(script, ReadBounds.SHEBANG_BYTES);
        } catch (IOException | SecurityException e) {
            return Optional.empty(); // unreadable, or slow to answer (DeadlineReads): no interpreter line known
        }
        return parse(new String(head, StandardCharsets.UTF_8));
    }

    static Optional<InterpreterLine> parse(String head) {
        int end = head.indexOf('\n');
        if (!head.startsWith("#!") || end < 0) {
            // No line end within the bound: the kernel refuses a truncated interpreter line.
            return Optional.empty();
        }
        String line = strip(head.substring(2, end));
        if (line.isEmpty()) {
            return Optional.empty();
        }
        int blank = firstBlank(line);
        if (blank < 0) {
            return Optional.of(new InterpreterLine(line, null));
        }
        String argument = strip(line.substring(blank));
        return Optional.of(new InterpreterLine(line.substring(0, blank), argument.isEmpty() ? null : argument));
    }

    private static int firstBlank(String line) {
        for (int i = 0; i < line.length(); i++) {
            if (line.charAt(i) == ' ' || line.charAt(i) == '\t') {
                return i;
            }
        }
        return -1;
    }

    /** Blanks (space, tab) trimmed, as the kernel trims them (a carriage return is kept: so is it there). */
    private static String strip(String text) {
        int from = 0;
        int to = text.length();
        while (from < to && isBlank(text.charAt(from))) {
            from++;
        }
        while (to > from && isBlank(text.charAt(to - 1))) {
            to--;
        }
        return text.substring(from, to);
    }

    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t';
    }
}
