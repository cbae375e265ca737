package dev.fleet.clientconfig;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Every argv the kernel may show for a configured command (the contract, §14, "Matching a command"),
 * found read-only: nothing is run. In the order returned:
 * <ol>
 *   <li>the command resolved as the client resolves it: on {@code PATH} when it has no '/' (execvp);</li>
 *   <li>when that file is a script, the kernel's form: its interpreter line first, then the script's
 *       path as executed ({@code #!/bin/sh -e} gives {@code /bin/sh -e /abs/script ARGS}); for
 *       {@code #!/usr/bin/env node}, {@code node /abs/script ARGS} and, with {@code node} found on
 *       {@code PATH}, {@code /usr/bin/node /abs/script ARGS} ({@code env -S} splits the rest);</li>
 *   <li>for {@code uvx} (by its real file's name), {@code /its/real/dir/uv tool uvx ARGS}, which it execs
 *       ({@link UvxExec});</li>
 *   <li>for {@code npx} (by its name), {@code npm exec ARGS}: npx retitles itself, leaving its own options
 *       out ({@code npx -y pkg} shows {@code npm exec pkg}), and the kernel then shows the title either as
 *       several elements or as ONE ({@code "npm exec pkg"}), so both, with npx's options and without;</li>
 *   <li>for a wrapper that execs the command after its own words ({@code env A=1 node s.js}, {@code nice},
 *       {@code taskset 0x1}: {@link ExecWrappers}), every form of that command;</li>
 *   <li>last, always, the command as written with its arguments.</li>
 * </ol>
 */
final class LaunchForms {

    private final ExecutableSearch path;

    LaunchForms(ExecutableSearch path) {
        this.path = path;
    }

    /**
     * The forms of {@code command} and {@code args}; {@code project} (may be null) is the directory a
     * relative command with a '/' is read from, the client's working directory for a project's file.
     */
    List<List<String>> of(String command, List<String> args, String project) {
        Set<List<String>> forms = new LinkedHashSet<>();
        Optional<Path> executable = executable(command, project);
        String executed = command;
        if (!command.contains("/") && executable.isPresent()) {
            executed = executable.get().toString();
            forms.add(join(List.of(executed), args));
        }
        if (executable.isPresent()) {
            for (List<String> interpreter : interpreters(executable.get())) {
                List<String> head = new ArrayList<>(interpreter);
                head.add(executed);
                forms.add(join(head, args));
            }
        }
        executable.flatMap(UvxExec::head).ifPresent(uv -> forms.add(join(uv, args)));
        if (NpxTitle.isNpx(command)) {
            // npm's title leaves npx's own options out (npm 11: "npx -y pkg a" shows "npm exec pkg a"); the
            // form with them is kept for an npm that shows them.
            for (List<String> shown : new LinkedHashSet<>(List.of(NpxTitle.withoutNpxOptions(args), args))) {
                forms.add(join(List.of("npm", "exec"), shown));
                forms.add(List.of(String.join(" ", join(List.of("npm", "exec"), shown))));
            }
        }
        List<String> words = join(List.of(command), args);
        int wrapped = ExecWrappers.commandAt(words);
        if (wrapped > 0) {
            // The wrapper execs the command (found on PATH as execvp finds it), which then shows in its place.
            forms.addAll(of(words.get(wrapped), words.subList(wrapped + 1, words.size()), project));
        }
        forms.remove(words);
        forms.add(words);
        return List.copyOf(forms);
    }

    /** The file the command names, for reading its interpreter line only. */
    private Optional<Path> executable(String command, String project) {
        if (!command.contains("/")) {
            return path.find(command);
        }
        try {
            Path written = Path.of(command);
            if (written.isAbsolute()) {
                return Optional.of(written);
            }
            return project == null ? Optional.empty() : Optional.of(Path.of(project).resolve(written));
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
    }

    /** The argv heads (interpreter and its argument) the script's interpreter line gives, if any. */
    private List<List<String>> interpreters(Path script) {
        Optional<InterpreterLine> line = InterpreterLine.of(script);
        if (line.isEmpty()) {
            return List.of();
        }
        String interpreter = line.get().interpreter();
        String argument = line.get().argument();
        if (!baseName(interpreter).equals("env") || argument == null) {
            return List.of(argument == null ? List.of(interpreter) : List.of(interpreter, argument));
        }
        // env runs its program through execvp, so the program shows the name env was given. Without
        // -S the kernel's one argument is the program's name whole.
        List<String> words = new ArrayList<>();
        if (argument.startsWith("-S")) {
            words.addAll(Arrays.asList(argument.substring(2).strip().split("[ \t]+")));
            while (!words.isEmpty() && (words.get(0).isEmpty() || words.get(0).contains("="))) {
                words.remove(0);
            }
        } else {
            words.add(argument);
        }
        if (words.isEmpty()) {
            return List.of();
        }
        List<List<String>> heads = new ArrayList<>();
        heads.add(words);
        if (!words.get(0).contains("/")) {
            Optional<Path> found = path.find(words.get(0));
            if (found.isPresent()) {
                List<String> resolved = new ArrayList<>(words);
                resolved.set(0, found.get().toString());
                heads.add(resolved);
            }
        }
        return heads;
    }

    private static List<String> join(List<String> head, List<String> args) {
        List<String> argv = new ArrayList<>(head);
        argv.addAll(args);
        return argv;
    }

    /** The last path segment of {@code command}: the program as a bare name. */
    static String baseName(String command) {
        return command.substring(command.lastIndexOf('/') + 1);
    }
}
