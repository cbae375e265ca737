package dev.fleet.clientconfig;

import java.util.List;
import java.util.Set;

/**
 * What a process table shows of an {@code npx} command: npx retitles itself {@code npm exec}, and npm's
 * title leaves npx's own options out (npm 11: {@code npx -y pkg a} shows {@code npm exec pkg a}). Both
 * {@code fleet host} (the forms a configured entry may show) and {@code mcp-config} (the roster pattern
 * of a wrapped server) read a command this way.
 */
public final class NpxTitle {

    /** npx's (and npm's config) options whose value is the next argument, when not written {@code --opt=value}. */
    private static final Set<String> OPTIONS_WITH_A_VALUE = Set.of("-p", "--package", "-c", "--call",
            "--registry", "--cache", "--prefix", "--userconfig", "-w", "--workspace", "--loglevel");

    private NpxTitle() {
    }

    /** Whether {@code program} is npx, by its name (with or without a directory). */
    public static boolean isNpx(String program) {
        return LaunchForms.baseName(program).equals("npx");
    }

    /** Whether {@code words} begin with {@code npm exec}, which shows itself as npx does. */
    public static boolean isNpmExec(List<String> words) {
        return words.size() > 1 && LaunchForms.baseName(words.get(0)).equals("npm") && words.get(1).equals("exec");
    }

    /**
     * {@code args} without the options npx reads itself before the package ({@code -y}, {@code --yes},
     * {@code -p PKG}, {@code --package=PKG}, ...; a {@code --} ends them): what follows is what npm runs,
     * and all its title shows.
     */
    public static List<String> withoutNpxOptions(List<String> args) {
        int first = 0;
        while (first < args.size()) {
            String arg = args.get(first);
            if (arg.equals("--")) {
                first++;
                break;
            }
            if (!arg.startsWith("-") || arg.equals("-")) {
                break;
            }
            first += OPTIONS_WITH_A_VALUE.contains(arg) ? 2 : 1;
        }
        return args.subList(Math.min(first, args.size()), args.size());
    }
}
