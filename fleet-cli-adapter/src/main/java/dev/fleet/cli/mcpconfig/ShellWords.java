package dev.fleet.cli.mcpconfig;

import dev.fleet.cli.exit.ConfigurationException;
import java.util.ArrayList;
import java.util.List;

/**
 * One line split into words exactly as a POSIX shell splits a simple command (XCU 2.2 and 2.3):
 * words are separated by blanks (space and tab); single quotes keep everything up to the next
 * single quote; inside double quotes a backslash is removed only before {@code $}, {@code `},
 * {@code "}, {@code \} or a newline (backslash-newline is removed whole); outside quotes a
 * backslash quotes the next character (backslash-newline is removed whole, and a backslash that
 * ends the line stays, as {@code sh} keeps it).
 *
 * <p>Nothing is ever run, so what a shell would do besides splitting is refused rather than
 * passed on as text that means something else: an unquoted operator ({@code | & ; < > ( )}) or
 * newline, a {@code #} that would start a comment, and a {@code $} or {@code `} a shell would
 * expand (outside single quotes). Each is one usage error saying how to quote it.
 */
final class ShellWords {

    private static final String OPERATORS = "|&;<>()";

    private final String line;
    private final List<String> words = new ArrayList<>();
    private StringBuilder word;
    private int at;

    private ShellWords(String line) {
        this.line = line;
    }

    /** The words of {@code line}, in order; {@code name} is the option an error names. */
    static List<String> split(String line, String name) {
        ShellWords splitter = new ShellWords(line);
        splitter.run(name);
        return List.copyOf(splitter.words);
    }

    private void run(String name) {
        while (at < line.length()) {
            char c = line.charAt(at++);
            if (c == ' ' || c == '\t') {
                endWord();
            } else if (c == '\'') {
                singleQuoted(name);
            } else if (c == '"') {
                doubleQuoted(name);
            } else if (c == '\\') {
                escaped();
            } else if (c == '\n') {
                throw new ConfigurationException(name + " holds an unquoted line break, where a shell would start "
                        + "another command, and fleet runs no shell: quote it or leave the rest out");
            } else if (OPERATORS.indexOf(c) >= 0) {
                throw new ConfigurationException(name + " holds an unquoted '" + c + "', which a shell would take "
                        + "as an operator, and fleet runs no shell: quote it ('" + c + "') or leave it out");
            } else if (c == '#' && word == null) {
                throw new ConfigurationException(name + " holds an unquoted '#' at the start of a word, where a "
                        + "shell starts a comment: quote it ('#') or leave the rest out");
            } else {
                expandable(c, name);
                append(c);
            }
        }
        endWord();
    }

    private void singleQuoted(String name) {
        int close = line.indexOf('\'', at);
        if (close < 0) {
            throw new ConfigurationException(name + " has an unclosed single quote");
        }
        started().append(line, at, close);
        at = close + 1;
    }

    private void doubleQuoted(String name) {
        StringBuilder quoted = started();
        while (at < line.length()) {
            char c = line.charAt(at++);
            if (c == '"') {
                return;
            }
            if (c == '\\' && at < line.length() && "$`\"\\\n".indexOf(line.charAt(at)) >= 0) {
                char next = line.charAt(at++);
                if (next != '\n') {
                    quoted.append(next);
                }
            } else {
                expandable(c, name);
                quoted.append(c);
            }
        }
        throw new ConfigurationException(name + " has an unclosed double quote");
    }

    private void escaped() {
        if (at == line.length()) {
            append('\\');
        } else if (line.charAt(at) == '\n') {
            at++; // a line continuation: removed, and the word goes on
        } else {
            append(line.charAt(at++));
        }
    }

    /** A shell would expand what follows {@code $} or {@code `} here; fleet would pass it on as it is. */
    private static void expandable(char c, String name) {
        if (c == '$' || c == '`') {
            throw new ConfigurationException(name + " holds '" + c + "' outside single quotes, which a shell "
                    + "would expand, and fleet runs no shell: write the value itself, or quote it ('" + c + "')");
        }
    }

    private StringBuilder started() {
        if (word == null) {
            word = new StringBuilder();
        }
        return word;
    }

    private void append(char c) {
        started().append(c);
    }

    private void endWord() {
        if (word != null) {
            words.add(word.toString());
            word = null;
        }
    }
}
