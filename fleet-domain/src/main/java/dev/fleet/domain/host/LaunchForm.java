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
        List<String> shown = withoutTrailingEmpties(argv);
        if (shown.isEmpty() || form.isEmpty()) {
            return false;
        }
        if (shown.size() == form.size() && sameProgram(shown.get(0), form.get(0))
                && shown.subList(1, shown.size()).equals(form.subList(1, form.size()))) {
            return true;
        }
        String line = String.join(" ", shown).strip();
        String formLine = String.join(" ", form);
        if (line.equals(formLine)) {
            return true;
        }
        int space = line.indexOf(' ');
        String program = space < 0 ? line : line.substring(0, space);
        String rest = space < 0 ? "" : line.substring(space + 1);
        return sameProgram(program, form.get(0)) && rest.equals(String.join(" ", form.subList(1, form.size())));
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
