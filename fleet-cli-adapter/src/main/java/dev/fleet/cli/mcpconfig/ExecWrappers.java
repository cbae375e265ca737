package dev.fleet.cli.mcpconfig;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Programs that run the command after their own words by exec, so that a process table shows that
 * command and not them: {@code env} (with its {@code NAME=VALUE} words), {@code nohup}, {@code nice},
 * {@code setsid} and {@code stdbuf}, with their options, in any chain. A roster pattern starts where
 * the command they run does.
 */
final class ExecWrappers {

    /** Each wrapper, by name, with its options whose value is the next word when not written {@code --opt=value}. */
    private static final Map<String, Set<String>> OPTIONS_WITH_A_VALUE = Map.of(
            "env", Set.of("-u", "--unset", "-C", "--chdir"),
            "nohup", Set.of(),
            "nice", Set.of("-n", "--adjustment"),
            "setsid", Set.of(),
            "stdbuf", Set.of("-i", "-o", "-e", "--input", "--output", "--error"));

    private ExecWrappers() {
    }

    /**
     * Where in {@code words} the command that shows begins: past every wrapper, its options and
     * {@code env}'s assignments; 0 where the first word is no wrapper, or where no command follows, or
     * where {@code env -S} splits a string itself (shown as split, which these words do not tell).
     */
    static int commandAt(List<String> words) {
        int at = 0;
        while (at < words.size()) {
            String name = words.get(at).substring(words.get(at).lastIndexOf('/') + 1);
            Set<String> withAValue = OPTIONS_WITH_A_VALUE.get(name);
            if (withAValue == null) {
                return at;
            }
            at++;
            while (at < words.size()) {
                String word = words.get(at);
                if (name.equals("env") && (word.startsWith("-S") || word.startsWith("--split-string"))) {
                    return 0;
                }
                if (word.equals("--")) {
                    at++;
                    break;
                }
                boolean option = word.startsWith("-") && word.length() > 1;
                if (!option && !(name.equals("env") && word.indexOf('=') > 0)) {
                    break;
                }
                at += option && withAValue.contains(word) ? 2 : 1;
            }
        }
        return 0;
    }
}
