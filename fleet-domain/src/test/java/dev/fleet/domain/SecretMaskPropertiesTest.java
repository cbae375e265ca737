package dev.fleet.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.util.ArrayList;
import java.util.List;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;
import org.junit.jupiter.api.Test;

/**
 * The masking rules over generated command lines made of plain words, options that name no secret, and
 * secrets in every form: secret options with their values ({@code --opt value}, {@code --opt=value}),
 * {@code NAME=VALUE} with a secret name, what follows {@code Bearer} or {@code Basic}, URLs with a password
 * or a user part alone. Every secret is written with characters no other word holds ({@link #SECRET_CHARS},
 * with {@code @} and {@code /} inside where a URL's may hold them, and spaces inside where one argument holds
 * it), so any part of one that is shown is seen. As argv, every secret is hidden whole; as a joined line, so
 * is every secret that holds no space. And over any text at all, masking what is masked changes nothing.
 */
class SecretMaskPropertiesTest {

    private static final String SECRET_CHARS = "QXZ#%";
    private static final List<String> WORDS = List.of("token", "secret", "password", "passwd", "key", "auth",
            "credential");
    private static final List<String> PLAIN_OPTIONS = List.of("verbose", "port", "log-level", "profile", "dir", "n");
    private static final List<String> PLAIN_WORDS = List.of("python3", "server.py", "serve", "", "a=b", "8080",
            "/opt/x.jar", "@acme/mcp", "-", "--", "http://host/path", "user@host");

    /** A command line in parts: each argument as written and as it must be shown. */
    private record Line(List<String> written, List<String> shown) {
        String text() {
            return String.join(" ", written);
        }

        /** Whether an argument holds a space: joined, its words can no longer be told from other arguments. */
        boolean spaced() {
            return written.stream().anyMatch(argument -> argument.indexOf(' ') >= 0);
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

    /** Over text made of the characters the rules read, whatever it says: a masked line masks to itself. */
    @Test
    void maskingAnyTextIsIdempotent() {
        qt().withExamples(20_000).forAll(anyText()).checkAssert(text -> {
            String once = SecretMask.commandLine(text);
            assertEquals(once, SecretMask.commandLine(once), () -> text + " shown as " + once);
            String argv = SecretMask.argv(List.of(text.split(",", -1)));
            assertEquals(argv, SecretMask.commandLine(argv), () -> text + " as argv shown as " + argv);
        });
    }

    @Test
    void noPartOfASecretIsEverShown() {
        qt().forAll(lines()).checkAssert(line -> {
            List<String> shownForms = line.spaced() ? List.of(SecretMask.argv(line.written()))
                    : List.of(SecretMask.commandLine(line.text()), SecretMask.argv(line.written()));
            for (String shown : shownForms) {
                for (char c : SECRET_CHARS.toCharArray()) {
                    assertFalse(shown.indexOf(c) >= 0, () -> line.written() + " shown as " + shown);
                }
            }
        });
    }

    /** Argument for argument: a secret is {@code ***} (a URL keeps all but its secret), every other argument is as written. */
    @Test
    void everyOtherArgumentIsLeftByteForByte() {
        qt().forAll(lines()).checkAssert(line -> {
            assertEquals(String.join(" ", line.shown()), SecretMask.argv(line.written()));
            if (!line.spaced()) {
                assertEquals(String.join(" ", line.shown()), SecretMask.commandLine(line.text()));
            }
        });
    }

    /** Kept apart, argument for argument: each secret is hidden as in {@link SecretMask#argv}, the rest as written. */
    @Test
    void argvApartShowsEachArgumentAsWritten() {
        qt().forAll(lines()).checkAssert(line -> {
            List<String> apart = SecretMask.argvApart(line.written());
            assertEquals(line.shown(), apart);
            assertEquals(SecretMask.argv(line.written()), String.join(" ", apart));
        });
    }

    /** Over any text as argv, masking apart what is masked apart changes nothing. */
    @Test
    void maskingApartIsIdempotent() {
        qt().withExamples(20_000).forAll(anyText()).checkAssert(text -> {
            List<String> once = SecretMask.argvApart(List.of(text.split(",", -1)));
            assertEquals(once, SecretMask.argvApart(once), () -> text + " apart shown as " + once);
        });
    }

    /** Guards the properties above against a generator that stopped making values that hold spaces. */
    @Test
    void theGeneratedLinesHoldValuesWithSpacesAndWithout() {
        List<Line> generated = new ArrayList<>();
        qt().withExamples(300).forAll(lines()).checkAssert(generated::add);
        long spaced = generated.stream().filter(Line::spaced).count();
        assertTrue(spaced > 30 && spaced < generated.size() - 30, spaced + " of " + generated.size());
    }

    private static Gen<Line> lines() {
        return ((Gen<Line>) SecretMaskPropertiesTest::line).describedAs(Line::text);
    }

    private static Line line(RandomnessSource in) {
        List<String> written = new ArrayList<>();
        List<String> shown = new ArrayList<>();
        for (int parts = pick(in, 1, 8); parts > 0; parts--) {
            switch (pick(in, 0, 8)) {
                case 0 -> same(written, shown, PLAIN_WORDS.get(pick(in, 0, PLAIN_WORDS.size() - 1)));
                case 1 -> same(written, shown, dashes(in) + PLAIN_OPTIONS.get(pick(in, 0, PLAIN_OPTIONS.size() - 1))
                        + (pick(in, 0, 1) == 0 ? "" : "=" + PLAIN_WORDS.get(pick(in, 1, 2))));
                case 2 -> {
                    same(written, shown, pick(in, 0, 3) == 0 ? authScheme(in) : dashes(in) + secretName(in));
                    for (int empty = pick(in, -3, 2); empty > 0; empty--) {
                        same(written, shown, ""); // two spaces in a line: the value is the next word written
                    }
                    written.add(secret(in, false));
                    shown.add(SecretMask.MASK);
                }
                case 3 -> {
                    String option = (pick(in, 0, 2) == 0 ? envName(in) : dashes(in) + secretName(in)) + "=";
                    written.add(option + secret(in, false));
                    shown.add(option + SecretMask.MASK);
                }
                case 4 -> {
                    String user = pick(in, 0, 1) == 0 ? "ci" : "";
                    String rest = "@gitea.example:3000/org/repo.git";
                    written.add("https://" + user + ":" + secret(in, true) + rest);
                    shown.add("https://" + user + ":" + SecretMask.MASK + rest);
                }
                case 5 -> {
                    String rest = "@gitea.example:3000/org/repo.git";
                    written.add("https://" + userSecret(in) + rest);
                    shown.add("https://" + SecretMask.MASK + rest);
                }
                case 6 -> {
                    String header = "Authorization: " + authScheme(in) + " ";
                    written.add(header + secret(in, false)); // one argument: the value runs to its end
                    shown.add(header + SecretMask.MASK);
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

    /** An environment-style name holding a secret word: {@code GITEA_TOKEN}, {@code api_Key_FILE}. */
    private static String envName(RandomnessSource in) {
        return secretName(in).replace('-', '_');
    }

    private static String authScheme(RandomnessSource in) {
        String scheme = pick(in, 0, 1) == 0 ? "Bearer" : "Basic";
        return switch (pick(in, 0, 2)) {
            case 0 -> scheme;
            case 1 -> scheme.toLowerCase(java.util.Locale.ROOT);
            default -> scheme.toUpperCase(java.util.Locale.ROOT);
        };
    }

    /**
     * Secret characters, with {@code @} and {@code /} between them where a URL's password may hold them, or
     * single spaces between them where one argument holds the value.
     */
    private static String secret(RandomnessSource in, boolean inUrl) {
        StringBuilder secret = new StringBuilder();
        for (int length = pick(in, 1, 6); length > 0; length--) {
            secret.append(SECRET_CHARS.charAt(pick(in, 0, SECRET_CHARS.length() - 1)));
            if (length > 1 && pick(in, 0, 3) == 0) {
                secret.append(inUrl ? (pick(in, 0, 1) == 0 ? '@' : '/') : ' ');
            }
        }
        return secret.toString();
    }

    /** A token as a URL's user name: secret characters (no {@code #}, which would end the host), {@code @} among them. */
    private static String userSecret(RandomnessSource in) {
        StringBuilder user = new StringBuilder();
        for (int length = pick(in, 1, 6); length > 0; length--) {
            user.append("QXZ%".charAt(pick(in, 0, 3)));
            if (length > 1 && pick(in, 0, 4) == 0) {
                user.append('@');
            }
        }
        return user.toString();
    }

    /** Text of the characters and words the rules read, commas splitting it into arguments for {@link SecretMask#argv}. */
    private static Gen<String> anyText() {
        List<String> pieces = List.of("-", "--", "=", ":", "/", "//", "://", "@", " ", "  ", ",", "?", "#", "a", "k",
                "token", "KEY", "auth", "Bearer", "basic", "***", "x", "http", "u:p@h", "API_KEY=");
        return ((Gen<String>) in -> {
            StringBuilder text = new StringBuilder();
            for (int count = pick(in, 0, 14); count > 0; count--) {
                text.append(pieces.get(pick(in, 0, pieces.size() - 1)));
            }
            return text.toString();
        }).describedAs(text -> text);
    }

    private static int pick(RandomnessSource in, int low, int high) {
        return integers().between(low, high).generate(in);
    }
}
