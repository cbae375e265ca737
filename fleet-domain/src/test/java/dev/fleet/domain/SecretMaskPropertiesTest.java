package dev.fleet.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.util.ArrayList;
import java.util.List;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;
import org.junit.jupiter.api.Test;

/**
 * The masking rules over generated command lines made of plain words, options that name no secret,
 * secret options in both forms with their values, and URLs with a password. Every secret is written
 * with characters no other token holds ({@link #SECRET_CHARS}, with {@code @} and {@code /} inside), so
 * any part of one that is shown is seen.
 */
class SecretMaskPropertiesTest {

    private static final String SECRET_CHARS = "QXZ#%";
    private static final List<String> WORDS = List.of("token", "secret", "password", "passwd", "key", "auth",
            "credential");
    private static final List<String> PLAIN_OPTIONS = List.of("verbose", "port", "log-level", "profile", "dir", "n");
    private static final List<String> PLAIN_WORDS = List.of("python3", "server.py", "serve", "", "a=b", "8080",
            "/opt/x.jar", "@acme/mcp", "-", "--", "http://host/path", "user@host");

    /** A command line in parts: each token as written, as it must be shown, and whether it is secret. */
    private record Line(List<String> written, List<String> shown) {
        String text() {
            return String.join(" ", written);
        }
    }

    @Test
    void maskingIsIdempotent() {
        qt().forAll(lines()).checkAssert(line -> {
            String once = SecretMask.commandLine(line.text());
            assertEquals(once, SecretMask.commandLine(once));
            String argv = SecretMask.argv(line.written());
            assertEquals(argv, SecretMask.commandLine(argv));
        });
    }

    @Test
    void noPartOfASecretIsEverShown() {
        qt().forAll(lines()).checkAssert(line -> {
            for (String shown : List.of(SecretMask.commandLine(line.text()), SecretMask.argv(line.written()))) {
                for (char c : SECRET_CHARS.toCharArray()) {
                    assertFalse(shown.indexOf(c) >= 0, () -> line.text() + " shown as " + shown);
                }
            }
        });
    }

    /** Token for token: a secret is {@code ***} (a URL keeps all but its password), every other token is as written. */
    @Test
    void everyOtherTokenIsLeftByteForByte() {
        qt().forAll(lines()).checkAssert(line -> {
            assertEquals(String.join(" ", line.shown()), SecretMask.commandLine(line.text()));
            assertEquals(String.join(" ", line.shown()), SecretMask.argv(line.written()));
        });
    }

    private static Gen<Line> lines() {
        return ((Gen<Line>) SecretMaskPropertiesTest::line).describedAs(Line::text);
    }

    private static Line line(RandomnessSource in) {
        List<String> written = new ArrayList<>();
        List<String> shown = new ArrayList<>();
        for (int parts = pick(in, 1, 8); parts > 0; parts--) {
            switch (pick(in, 0, 5)) {
                case 0 -> same(written, shown, PLAIN_WORDS.get(pick(in, 0, PLAIN_WORDS.size() - 1)));
                case 1 -> same(written, shown, dashes(in) + PLAIN_OPTIONS.get(pick(in, 0, PLAIN_OPTIONS.size() - 1))
                        + (pick(in, 0, 1) == 0 ? "" : "=" + PLAIN_WORDS.get(pick(in, 1, 2))));
                case 2 -> {
                    String option = dashes(in) + secretName(in);
                    same(written, shown, option);
                    for (int empty = pick(in, -3, 2); empty > 0; empty--) {
                        same(written, shown, ""); // two spaces in a line: the value is the next token written
                    }
                    written.add(secret(in, false));
                    shown.add(SecretMask.MASK);
                }
                case 3 -> {
                    String option = dashes(in) + secretName(in) + "=";
                    written.add(option + secret(in, true));
                    shown.add(option + SecretMask.MASK);
                }
                case 4 -> {
                    String user = pick(in, 0, 1) == 0 ? "ci" : "";
                    String rest = "@gitea.example:3000/org/repo.git";
                    written.add("https://" + user + ":" + secret(in, true) + rest);
                    shown.add("https://" + user + ":" + SecretMask.MASK + rest);
                }
                default -> same(written, shown, "--port=" + pick(in, 1, 65_535));
            }
        }
        return new Line(written, shown);
    }

    private static void same(List<String> written, List<String> shown, String token) {
        written.add(token);
        shown.add(token);
    }

    private static String dashes(RandomnessSource in) {
        return pick(in, 0, 1) == 0 ? "-" : "--";
    }

    /** A name holding a secret word, in any case, with something around it now and then. */
    private static String secretName(RandomnessSource in) {
        String word = WORDS.get(pick(in, 0, WORDS.size() - 1));
        StringBuilder name = new StringBuilder(pick(in, 0, 1) == 0 ? "" : "api-");
        for (char c : word.toCharArray()) {
            name.append(pick(in, 0, 1) == 0 ? c : Character.toUpperCase(c));
        }
        return name.append(pick(in, 0, 1) == 0 ? "" : "-file").toString();
    }

    /** Secret characters, with {@code @} and {@code /} between them where a URL's password may hold them. */
    private static String secret(RandomnessSource in, boolean inUrl) {
        StringBuilder secret = new StringBuilder();
        for (int length = pick(in, 1, 6); length > 0; length--) {
            secret.append(SECRET_CHARS.charAt(pick(in, 0, SECRET_CHARS.length() - 1)));
            if (inUrl && length > 1 && pick(in, 0, 3) == 0) {
                secret.append(pick(in, 0, 1) == 0 ? '@' : '/');
            }
        }
        return secret.toString();
    }

    private static int pick(RandomnessSource in, int low, int high) {
        return integers().between(low, high).generate(in);
    }
}
