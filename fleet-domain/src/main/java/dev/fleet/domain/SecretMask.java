package dev.fleet.domain;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * Secrets taken out of a command line before anyone is shown it or it is kept (docs/CONTRACT.md, "Secrets in
 * command lines"): a process's command line as observed, a wrapped server's {@code server_command}, every
 * {@code command_line} a verdict shows. Each becomes {@code ***}:
 * <ul>
 * <li>the value of an option whose name holds {@code token}, {@code secret}, {@code password}, {@code passwd},
 * {@code key}, {@code auth} or {@code credential} (in any case), written {@code --opt value}, and the value of
 * any {@code NAME=VALUE} whose name (dashes or not: {@code --api-key=…}, {@code GITEA_TOKEN=…}) holds one;</li>
 * <li>what follows the word {@code Bearer} or {@code Basic} (in any case: {@code Authorization: Bearer …});</li>
 * <li>the password of a {@code scheme://user:password@}, and the whole user part of a {@code scheme://user@}
 * that carries none (a token as user name).</li>
 * </ul>
 *
 * <p><b>A value is masked whole.</b> Where the argv is known ({@link #argv}), an argument that is a separate
 * value is hidden whole ({@code --token 'a b'}), and a value an argument begins with runs to the argument's
 * end, spaces included ({@code --token='a b'}, {@code API_KEY='a b'}, {@code -H 'Authorization: Bearer a b'});
 * deeper inside an argument (a script for {@code sh -c}, a whole command line as argv[0]) the words are read
 * as a shell would split them, a value being one word. Where only a joined line is known ({@link
 * #commandLine}: a row another tool wrote), arguments cannot be told from the spaces inside them, so each
 * space-separated word is taken as an argument: a value holding spaces shows its tail. That is why fleet masks
 * a process's command line where it still has the arguments apart (the observer reads
 * {@code /proc/PID/cmdline}'s NUL-separated arguments) and a wrapped server's argv before joining it.
 *
 * <p>Masking errs towards hiding: a separate value is the next non-empty word whatever it looks like
 * ({@code --token --verbose} hides {@code --verbose}), a URL's password runs to the last {@code @} before the
 * next URL, a user part to the last {@code @} before its host's end. Every other word stays byte for byte as
 * it was, and masking what is masked changes nothing, so a reader may mask again a line a writer already
 * masked. Linear in the line's length (a command line is anyone's text): no regular expression, no scan that
 * goes back over what it has passed. Pure: no I/O, no state.
 */
public final class SecretMask {

    /** What a secret is shown as. */
    public static final String MASK = "***";

    private static final List<String> SECRET_WORDS =
            List.of("token", "secret", "password", "passwd", "key", "auth", "credential");
    private static final List<String> AUTH_SCHEMES = List.of("bearer", "basic");
    /** Passes over a line, at most, until one changes nothing ({@link #commandLine}). */
    private static final int MAX_PASSES = 8;

    private SecretMask() {
    }

    /**
     * {@code argv} joined by single spaces, secrets masked: each argument masked as one (a value holding
     * spaces is hidden whole), then the joined line as {@link #commandLine} reads it, so what a reader
     * masks again stays as it is.
     */
    public static String argv(List<String> argv) {
        return commandLine(masked(argv));
    }

    /**
     * {@code argv} with its secrets masked, the arguments kept apart (for a reader that compares argument by
     * argument, as {@code fleet host} matches a process against a configured entry): each argument masked as
     * {@link #argv} masks it, a value an argument opens hidden in the next. Passes repeat until one changes
     * nothing (at most {@value #MAX_PASSES}), so masking the result again changes nothing.
     */
    public static List<String> argvApart(List<String> argv) {
        return settled(List.copyOf(argv), SecretMask::maskedApart);
    }

    /**
     * {@code line} (arguments joined by single spaces, as a process table shows them) with its secrets masked;
     * null stays null. The rules read text that another rule may hide (a URL's last {@code @}, the first
     * {@code =} of a word), so one pass over a masked line could hide more: passes repeat until one changes
     * nothing, which makes masking a masked line change nothing. Each pass only hides text, never shows any,
     * so a few passes settle it; {@value #MAX_PASSES} bound the work on any text.
     */
    public static String commandLine(String line) {
        return line == null ? null : settled(line, shown -> masked(Arrays.asList(shown.split(" ", -1))));
    }

    /** {@code pass} applied to {@code value} until it changes nothing, at most {@value #MAX_PASSES} times. */
    private static <T> T settled(T value, UnaryOperator<T> pass) {
        T shown = value;
        for (int i = 0; i < MAX_PASSES; i++) {
            T again = pass.apply(shown);
            if (again.equals(shown)) {
                return shown;
            }
            shown = again;
        }
        return shown;
    }

    /** The arguments joined by single spaces, each masked, a value an argument opens hidden in the next. */
    private static String masked(List<String> arguments) {
        return String.join(" ", maskedApart(arguments));
    }

    /** Each argument masked as {@link #masked} masks it, kept apart. */
    private static List<String> maskedApart(List<String> arguments) {
        List<String> shown = new ArrayList<>(arguments.size());
        StringBuilder one = new StringBuilder();
        boolean valueAhead = false;
        for (String argument : arguments) {
            one.setLength(0);
            valueAhead = maskArgument(argument, valueAhead, one);
            shown.add(one.toString());
        }
        return List.copyOf(shown);
    }

    /**
     * Appends {@code argument} to {@code shown} masked, its words read as a joined line reads them. A value the
     * argument begins with runs to its end, spaces included: the whole argument after a secret option or an
     * auth scheme that ended the argument before ({@code valueAhead}), and the rest of it after a secret
     * {@code NAME=} as its first word ({@code --token=a b}, {@code API_KEY=a b}), after a secret option or an
     * auth scheme as its first word ({@code Bearer a b}), or after a header's scheme ({@code Authorization:
     * Bearer a b}). Deeper inside an argument (a script for {@code sh -c}, a whole command line as argv[0])
     * a value is one word, as in a joined line. Each word shown has its URLs' secrets masked. Answers whether
     * a value is still ahead after it, judged on its words as written (a value hidden is still read).
     */
    private static boolean maskArgument(String argument, boolean valueAhead, StringBuilder shown) {
        boolean ahead = valueAhead;
        boolean toEnd = valueAhead;
        boolean hiding = false;
        boolean headerName = false;
        int start = 0;
        for (int word = 0; ; word++) {
            int space = nextSeparator(argument, start);
            int end = space < 0 ? argument.length() : space;
            if (!hiding) {
                if (ahead && end > start) {
                    shown.append(MASK);
                    hiding = toEnd;
                } else {
                    // URLs first, then NAME=VALUE on what they left: a URL's user part may hold an '=' that
                    // would otherwise name another NAME, and be gone when the masked line is masked again.
                    String text = UrlSecrets.masked(argument, start, end);
                    int equals = secretValueAt(text, 0, text.length());
                    if (equals >= 0) {
                        shown.append(text, 0, equals + 1).append(MASK);
                        hiding = word == 0;
                    } else {
                        shown.append(text);
                    }
                }
                if (!hiding && space >= 0) {
                    shown.append(argument.charAt(space)); // the separator as written: a tab stays a tab
                }
            }
            boolean opens = opensValue(argument, start, end);
            if (opens) {
                toEnd = word == 0 || (word == 1 && headerName);
            }
            ahead = (ahead && end == start) || opens;
            headerName = word == 0 && end > start && argument.charAt(end - 1) == ':';
            if (space < 0) {
                return ahead;
            }
            start = space + 1;
        }
    }

    /**
     * The first space, tab or newline at or after {@code from}, or -1: the characters a shell splits words at. A
     * script's words are often apart by a newline or a tab ({@code sh -c $'cd /srv\nGITEA_TOKEN=x srv'}, {@code
     * --token<TAB>x}), and a word read as joined to the one before hid nothing: the {@code NAME=} before the
     * first {@code =} was {@code /srv\nGITEA_TOKEN}'s, or {@code X=1\nGITEA_TOKEN=x} read as X's value.
     */
    private static int nextSeparator(String text, int from) {
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** Whether the word {@code text[start, end)} is followed by a value: a secret {@code --opt}, or an auth scheme. */
    private static boolean opensValue(String text, int start, int end) {
        return takesSecretValue(text, start, end) || endsWithAuthScheme(text, start, end);
    }

    /**
     * {@code --opt} (a dash first, no {@code =}) whose name holds a secret word: the next word is its value. Quotes
     * before the dash are skipped, as a shell drops them: a script's {@code "--token" x} passes {@code --token}.
     */
    private static boolean takesSecretValue(String text, int start, int end) {
        int dash = start;
        while (dash < end && (text.charAt(dash) == '"' || text.charAt(dash) == '\'')) {
            dash++;
        }
        if (end == dash || text.charAt(dash) != '-') {
            return false;
        }
        for (int i = dash; i < end; i++) {
            if (text.charAt(i) == '=') {
                return false;
            }
        }
        return namesSecret(text, skipDashes(text, dash, end), end);
    }

    /** {@code Bearer} or {@code Basic} in any case, alone or ending the word after a non-alphanumeric ({@code "Bearer}). */
    private static boolean endsWithAuthScheme(String text, int start, int end) {
        for (String scheme : AUTH_SCHEMES) {
            int from = end - scheme.length();
            if (from >= start && text.regionMatches(true, from, scheme, 0, scheme.length())
                    && (from == start || !Character.isLetterOrDigit(text.charAt(from - 1)))) {
                return true;
            }
        }
        return false;
    }

    /** The index of the {@code =} of a secret {@code NAME=VALUE} word {@code text[start, end)} with a value; else -1. */
    private static int secretValueAt(String text, int start, int end) {
        int equals = UrlSecrets.indexOf(text, '=', start, end);
        if (equals < 0 || equals >= end - 1) {
            return -1;
        }
        return namesSecret(text, skipDashes(text, start, equals), equals) ? equals : -1;
    }

    private static int skipDashes(String text, int start, int end) {
        int i = start;
        while (i < end && text.charAt(i) == '-') {
            i++;
        }
        return i;
    }

    /** Whether {@code text[start, end)} holds a secret word, in any case. */
    private static boolean namesSecret(String text, int start, int end) {
        if (end <= start) {
            return false;
        }
        String lower = text.substring(start, end).toLowerCase(Locale.ROOT);
        for (String word : SECRET_WORDS) {
            if (lower.contains(word)) {
                return true;
            }
        }
        return false;
    }
}
