package dev.fleet.cli.serve;

import dev.fleet.cli.exit.ConfigurationException;
import dev.fleet.domain.RosterMember;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code fleet mcp-config --server-command 'COMMAND ARG…'}: the operator's own server, as one line
 * of words, split as a shell would split it (blanks; single and double quotes; a backslash escaping
 * the next character outside single quotes) but never run by one, with {@code {profile}},
 * {@code {namespace}} and {@code {role}} filled in per member.
 */
public record ServerCommand(List<String> words) {

    private static final List<String> PLACEHOLDERS = List.of("{profile}", "{namespace}", "{role}");

    public ServerCommand {
        words = List.copyOf(words);
        if (words.isEmpty()) {
            throw new ConfigurationException("--server-command is empty: give the command that starts your server");
        }
    }

    /** The words of {@code line}; an unclosed quote or a trailing backslash is a usage error. */
    public static ServerCommand parse(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote == '\'') {
                if (c == '\'') {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\\') {
                if (++i == line.length()) {
                    throw new ConfigurationException("--server-command ends in a backslash");
                }
                word = word == null ? new StringBuilder() : word;
                word.append(line.charAt(i));
            } else if (quote == '"') {
                if (c == '"') {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                word = word == null ? new StringBuilder() : word;
            } else if (Character.isWhitespace(c)) {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
            } else {
                word = word == null ? new StringBuilder() : word;
                word.append(c);
            }
        }
        if (quote != 0) {
            throw new ConfigurationException("--server-command has an unclosed " + (quote == '"' ? "double" : "single")
                    + " quote");
        }
        if (word != null) {
            words.add(word.toString());
        }
        return new ServerCommand(words);
    }

    /** The words for {@code member}, its placeholders filled in. */
    public List<String> forMember(RosterMember member) {
        return words.stream().map(word -> word.replace("{profile}", member.profile())
                .replace("{namespace}", member.namespace()).replace("{role}", member.role())).toList();
    }

    /**
     * A roster pattern (RE2) that is found in the command line of this server for every member: its
     * words after the first, as written (the program itself may show as another path, or as an
     * interpreter running it), each placeholder standing for any word; the first word alone when it
     * is the only one. A copy of the server started without fleet matches it too, which is the point.
     */
    public String pattern() {
        List<String> distinctive = words.size() > 1 ? words.subList(1, words.size()) : words;
        List<String> parts = new ArrayList<>();
        for (String word : distinctive) {
            parts.add(wordPattern(word));
        }
        return "(^|[\\s/])" + String.join(" ", parts) + "(\\s|$)";
    }

    /**
     * A pattern that finds this fleet's own members and no other fleet's: a {@code fleet.jar serve}
     * whose command line names {@code registry}, as every entry {@code mcp-config} writes with a
     * registry does.
     */
    public static String membersPattern(String registry) {
        return "(^|[\\s/])fleet\\.jar serve .*--registry " + literal(registry) + "(\\s|$)";
    }

    private static String wordPattern(String word) {
        StringBuilder pattern = new StringBuilder();
        int i = 0;
        while (i < word.length()) {
            int next = nextPlaceholder(word, i);
            if (next == i) {
                int at = i;
                String found = PLACEHOLDERS.stream().filter(p -> word.startsWith(p, at)).findFirst().orElseThrow();
                pattern.append("\\S+");
                i += found.length();
            } else {
                int end = next < 0 ? word.length() : next;
                pattern.append(literal(word.substring(i, end)));
                i = end;
            }
        }
        return pattern.toString();
    }

    private static int nextPlaceholder(String word, int from) {
        int next = -1;
        for (String placeholder : PLACEHOLDERS) {
            int at = word.indexOf(placeholder, from);
            if (at >= 0 && (next < 0 || at < next)) {
                next = at;
            }
        }
        return next;
    }

    /** {@code text} matched literally: every character RE2 gives a meaning escaped, a space as one blank. */
    private static String literal(String text) {
        StringBuilder escaped = new StringBuilder();
        for (char c : text.toCharArray()) {
            if ("\\.[]{}()*+?^$|".indexOf(c) >= 0) {
                escaped.append('\\');
            }
            escaped.append(c == ' ' ? "\\s" : String.valueOf(c));
        }
        return escaped.toString();
    }
}
