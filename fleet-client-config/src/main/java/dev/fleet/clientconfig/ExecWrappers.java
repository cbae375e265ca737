package dev.fleet.clientconfig;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Programs that run the command after their own words by exec, so that a process table shows that
 * command and not them: {@code env} (with its {@code NAME=VALUE} words), {@code nohup}, {@code nice},
 * {@code setsid}, {@code stdbuf}, {@code ionice}, and {@code taskset} and {@code chrt} (each with the one
 * word it reads before the command: a CPU mask or list, a priority), with their options, in any chain.
 * {@code fleet host} matches the command they run ({@link LaunchForms}), and {@code fleet mcp-config}'s
 * roster pattern starts where it does.
 */
public final class ExecWrappers {

    /**
     * How a wrapper reads its own words: its options whose value is the next word when not written
     * {@code --opt=value}, the options that make it act on a running process and run nothing, and how many
     * words it reads before the command.
     */
    private record Wrapper(Set<String> withAValue, Set<String> runNothing, int operands) {
    }

    private static final Map<String, Wrapper> WRAPPERS = Map.of(
            "env", new Wrapper(Set.of("-u", "--unset", "-C", "--chdir"), Set.of(), 0),
            "nohup", new Wrapper(Set.of(), Set.of(), 0),
            "nice", new Wrapper(Set.of("-n", "--adjustment"), Set.of(), 0),
            "setsid", new Wrapper(Set.of(), Set.of(), 0),
            "stdbuf", new Wrapper(Set.of("-i", "-o", "-e", "--input", "--output", "--error"), Set.of(), 0),
            "ionice", new Wrapper(Set.of("-c", "--class", "-n", "--classdata"),
                    Set.of("-p", "--pid", "-P", "--pgid", "-u", "--uid"), 0),
            "taskset", new Wrapper(Set.of(), Set.of("-p", "--pid"), 1),
            "chrt", new Wrapper(Set.of("-T", "--sched-runtime", "-P", "--sched-period", "-D", "--sched-deadline"),
                    Set.of("-p", "--pid", "-m", "--max"), 1));

    private ExecWrappers() {
    }

    /**
     * Where in {@code words} the command that shows begins: past every wrapper, its options, the words it
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
            at++;
            while (at < words.size()) {
                String word = words.get(at);
                if (name.equals("env") && (word.startsWith("-S") || word.startsWith("--split-string"))
                        || wrapper.runNothing().contains(word)) {
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
                at += option && wrapper.withAValue().contains(word) ? 2 : 1;
            }
            at += wrapper.operands();
        }
        return 0;
    }
}
