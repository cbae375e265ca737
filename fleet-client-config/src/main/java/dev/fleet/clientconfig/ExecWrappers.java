package dev.fleet.clientconfig;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Programs that run the command after their own words by exec, so that a process table shows that
 * command and not them: {@code env} (with its {@code NAME=VALUE} words), {@code nohup}, {@code nice},
 * {@code setsid}, {@code stdbuf}, {@code ionice}, {@code taskset} (with the CPU mask or list it reads
 * before the command) and {@code chrt} (with its priority, which util-linux 2.42 made optional), with
 * their options, in any chain. {@code fleet host} matches the command they run ({@link LaunchForms}),
 * and {@code fleet mcp-config}'s roster pattern starts where it does.
 */
public final class ExecWrappers {

    /**
     * How a wrapper reads its own words: its options whose value is the next word when not written
     * {@code --opt=value}; the letters and long options that make it act on a running process or print, and
     * run nothing ({@code taskset -p}, {@code chrt -m}), alone or among other letters ({@code taskset -pc});
     * and which word it reads before the command, if any.
     */
    private record Wrapper(Set<String> withAValue, String runNothingLetters, Set<String> runNothingLong,
            Predicate<String> operand) {

        boolean runsNothing(String option) {
            if (option.startsWith("--")) {
                return runNothingLong.stream().anyMatch(name -> option.equals(name) || option.startsWith(name + "="));
            }
            for (int i = 1; i < option.length() && !Character.isDigit(option.charAt(i)); i++) {
                if (runNothingLetters.indexOf(option.charAt(i)) >= 0) {
                    return true;
                }
            }
            return false;
        }
    }

    private static final Predicate<String> NONE = word -> false;

    private static final Map<String, Wrapper> WRAPPERS = Map.of(
            "env", new Wrapper(Set.of("-u", "--unset", "-C", "--chdir"), "", Set.of(), NONE),
            "nohup", new Wrapper(Set.of(), "", Set.of(), NONE),
            "nice", new Wrapper(Set.of("-n", "--adjustment"), "", Set.of(), NONE),
            "setsid", new Wrapper(Set.of(), "", Set.of(), NONE),
            "stdbuf", new Wrapper(Set.of("-i", "-o", "-e", "--input", "--output", "--error"), "", Set.of(), NONE),
            "ionice", new Wrapper(Set.of("-c", "--class", "-n", "--classdata"), "pPu",
                    Set.of("--pid", "--pgid", "--uid"), NONE),
            "taskset", new Wrapper(Set.of(), "p", Set.of("--pid"), word -> true),
            "chrt", new Wrapper(Set.of("-T", "--sched-runtime", "-P", "--sched-period", "-D", "--sched-deadline"), "pm",
                    Set.of("--pid", "--max"), word -> word.chars().allMatch(Character::isDigit) && !word.isEmpty()));

    private ExecWrappers() {
    }

    /**
     * Where in {@code words} the command that shows begins: past every wrapper, its options, the word it
     * reads before the command and {@code env}'s assignments; 0 where the first word is no wrapper, where no
     * command follows, where a wrapper acts on a running process ({@code taskset -p}), or where {@code env -S}
     * splits a string itself (shown as split, which these words do not tell).
     */
    public static int commandAt(List<String> words) {
        int at = 0;
        while (at < words.size()) {
            String name = words.get(at).substring(words.get(at).lastIndexOf('/') + 1);
            Wrapper wrapper = WRAPPERS.get(name);
            if (wrapper == null) {
                return at;
            }
            boolean env = name.equals("env");
            at++;
            boolean optionsEnded = false;
            while (at < words.size()) {
                String word = words.get(at);
                if (env && (word.startsWith("-S") || word.startsWith("--split-string"))
                        || !optionsEnded && word.startsWith("-") && wrapper.runsNothing(word)) {
                    return 0;
                }
                boolean assignment = env && word.indexOf('=') > 0;
                if (!optionsEnded && word.equals("--")) {
                    optionsEnded = true; // env still reads its NAME=VALUE words after it
                    at++;
                    continue;
                }
                boolean option = !optionsEnded && word.startsWith("-") && (word.length() > 1 || env);
                if (!option && !assignment) {
                    break;
                }
                at += option && wrapper.withAValue().contains(word) ? 2 : 1;
            }
            if (at < words.size() && wrapper.operand().test(words.get(at))) {
                at++;
            }
        }
        return 0;
    }
}
