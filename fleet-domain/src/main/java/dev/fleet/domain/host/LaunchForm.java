package dev.fleet.domain.host;

import java.util.List;

/**
 * Whether a process's argv is one of a configured entry's launch forms ({@link
 * ConfiguredServer#launchForms()}), the way the kernel shows what the client started:
 * <ul>
 *   <li>The first word, the program, is equal; or one of the two is a bare name (no {@code /}) equal
 *       to the other's last path segment: a client that starts {@code npx} by name shows
 *       {@code npx} or {@code /usr/bin/npx} depending on how it calls exec, and an interpreter line
 *       makes {@code node} or {@code /usr/bin/node}. Two paths must be equal: {@code /opt/a/server}
 *       is not {@code /opt/b/server}.</li>
 *   <li>Every other word is equal, in order.</li>
 *   <li>A process that rewrote its title (Node's {@code process.title}, as {@code npx} does to show
 *       {@code npm exec ...}) shows its whole command line as one argument, padded with empty ones:
 *       empty trailing arguments are dropped, and when the argv still differs, its space-joined line
 *       is compared with the form's the same way (program by the rule above, the rest equal).</li>
 * </ul>
 */
final class LaunchForm {

    private LaunchForm() {
    }

    static boolean matches(List<String> argv, List<String> form) {
        return Shown.of(argv).matches(form);
    }

    /**
     * A process's argv as the forms are compared with it, joined once for all of them: an argv may
     * hold 2 MB, and joining it again for each of 50 configured forms made one look take seconds.
     *
     * @param argv the argv without its empty trailing arguments
     * @param line those arguments joined by single spaces, stripped
     * @param program the line's first word
     * @param rest the line after its first space
     */
    record Shown(List<String> argv, String line, String program, String rest) {

        static Shown of(List<String> argv) {
            List<String> shown = withoutTrailingEmpties(argv);
            String line = String.join(" ", shown).strip();
            int space = line.indexOf(' ');
            return new Shown(shown, line, space < 0 ? line : line.substring(0, space),
                    space < 0 ? "" : line.substring(space + 1));
        }

        boolean matches(List<String> form) {
            if (argv.isEmpty() || form.isEmpty()) {
                return false;
            }
            if (argv.size() == form.size() && sameProgram(argv.get(0), form.get(0))
                    && argv.subList(1, argv.size()).equals(form.subList(1, form.size()))) {
                return true;
            }
            return line.equals(String.join(" ", form))
                    || sameProgram(program, form.get(0)) && rest.equals(String.join(" ", form.subList(1, form.size())));
        }
    }

    /** The program shown and the program configured are the same one (see the class comment). */
    static boolean sameProgram(String shown, String configured) {
        if (shown.equals(configured)) {
            return true;
        }
        if (isBareName(configured)) {
            return baseName(shown).equals(configured);
        }
        return isBareName(shown) && baseName(configured).equals(shown);
    }

    static boolean isBareName(String program) {
        return !program.isEmpty() && program.indexOf('/') < 0;
    }

    /** The last path segment of {@code path}: the text after its last {@code /}. */
    static String baseName(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    private static List<String> withoutTrailingEmpties(List<String> argv) {
        int end = argv.size();
        while (end > 0 && argv.get(end - 1).isEmpty()) {
            end--;
        }
        return argv.subList(0, end);
    }
}
