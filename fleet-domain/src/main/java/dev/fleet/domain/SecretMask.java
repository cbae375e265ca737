package dev.fleet.domain;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Secrets taken out of a command line before anyone is shown it (docs/CONTRACT.md, "Secrets in command
 * lines"): a wrapped server's {@code server_command} and every {@code command_line} a verdict shows. The
 * password of any {@code scheme://user:password@} becomes {@code ***}, and so does the value of any option
 * whose name holds {@code token}, {@code secret}, {@code password}, {@code passwd}, {@code key},
 * {@code auth} or {@code credential} (in any case), written {@code --opt=value} or {@code --opt value}.
 *
 * <p>Masking errs towards hiding: an option's separate value is the next non-empty token whatever it looks
 * like ({@code --token --verbose} hides {@code --verbose}), and a URL's password runs to the last {@code @}
 * before the next URL. Every other token stays byte for byte as it was, and masking what is masked changes
 * nothing, so a reader may mask again a line a writer already masked. Pure: no I/O, no state.
 */
public final class SecretMask {

    /** What a secret is shown as. */
    public static final String MASK = "***";

    private static final List<String> SECRET_WORDS =
            List.of("token", "secret", "password", "passwd", "key", "auth", "credential");
    private static final String URL_MARK = "://";

    private SecretMask() {
    }

    /**
     * {@code argv} joined by single spaces, secrets masked: each argument as one token (a value holding
     * spaces is hidden whole), then the joined line as {@link #commandLine} reads it, so what a reader
     * masks again stays as it is.
     */
    public static String argv(List<String> argv) {
        return commandLine(String.join(" ", masked(argv)));
    }

    /** {@code line} (arguments joined by single spaces, as a process table shows them) with its secrets masked; null stays null. */
    public static String commandLine(String line) {
        if (line == null || (line.indexOf('-') < 0 && !line.contains(URL_MARK))) {
            return line; // no option and no URL: nothing to mask, the common case
        }
        return String.join(" ", masked(Arrays.asList(line.split(" ", -1))));
    }

    /** Each token as shown: the value of a secret option before it hidden, else with its own secrets hidden. */
    private static List<String> masked(List<String> tokens) {
        List<String> shown = new ArrayList<>(tokens.size());
        boolean valueAhead = false;
        for (String token : tokens) {
            boolean hidden = valueAhead && !token.isEmpty();
            shown.add(hidden ? MASK : maskedWithin(token));
            // An empty token hides nothing, so the value is still ahead; judged on the token as written.
            valueAhead = (valueAhead && token.isEmpty()) || takesSecretValue(token);
        }
        return shown;
    }

    /** {@code --opt} (no {@code =}) whose name holds a secret word: the next token is its value. */
    static boolean takesSecretValue(String token) {
        return token.startsWith("-") && token.indexOf('=') < 0 && namesSecret(token.substring(dashes(token)));
    }

    /** The token with its {@code --opt=value} value or its URL passwords masked; unchanged when it holds neither. */
    private static String maskedWithin(String token) {
        int equals = token.indexOf('=');
        if (token.startsWith("-") && equals > 0 && equals + 1 < token.length()
                && namesSecret(token.substring(dashes(token), equals))) {
            return token.substring(0, equals + 1) + MASK;
        }
        return token.contains(URL_MARK) ? maskedUrls(token) : token;
    }

    /**
     * Every {@code scheme://user:password@} in {@code token} with its password masked: the user info runs
     * from the {@code ://} to the last {@code @} before the next URL (a password may hold {@code @} or
     * {@code /}), the password from its first {@code :}.
     */
    private static String maskedUrls(String token) {
        StringBuilder shown = new StringBuilder(token.length());
        int copied = 0;
        for (int mark = token.indexOf(URL_MARK); mark >= 0; mark = token.indexOf(URL_MARK, mark + 1)) {
            if (mark == 0 || !isSchemeChar(token.charAt(mark - 1))) {
                continue;
            }
            int start = mark + URL_MARK.length();
            int next = token.indexOf(URL_MARK, start);
            int at = token.lastIndexOf('@', (next < 0 ? token.length() : next) - 1);
            int colon = token.indexOf(':', start);
            if (at >= start && colon >= 0 && colon < at && at > colon + 1) {
                shown.append(token, copied, colon + 1).append(MASK);
                copied = at;
            }
        }
        return copied == 0 ? token : shown.append(token, copied, token.length()).toString();
    }

    private static boolean isSchemeChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '+' || c == '-'
                || c == '.';
    }

    private static int dashes(String token) {
        int count = 0;
        while (count < token.length() && token.charAt(count) == '-') {
            count++;
        }
        return count;
    }

    private static boolean namesSecret(String name) {
        if (name.isEmpty()) {
            return false;
        }
        String lower = name.toLowerCase(Locale.ROOT);
        for (String word : SECRET_WORDS) {
            if (lower.contains(word)) {
                return true;
            }
        }
        return false;
    }
}
