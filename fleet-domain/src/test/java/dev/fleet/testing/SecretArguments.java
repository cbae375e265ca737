package dev.fleet.testing;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;

/**
 * Arguments that carry a secret in every form fleet masks (docs/CONTRACT.md, "Secrets in command lines"),
 * several values holding spaces, for a real process to be started with: whatever fleet then shows or keeps of
 * its command line must read {@link #MASKED} and hold none of {@link #SECRETS}.
 */
public final class SecretArguments {

    /** One argument each as written: an option's separate value, {@code NAME=VALUE}, headers, URLs. */
    public static final List<String> ARGUMENTS = List.of("--token", "ZqTokA ZqTokB", "GITEA_TOKEN=ZqEnvA ZqEnvB",
            "--api-key=ZqOptA ZqOptB", "-H", "Authorization: Bearer ZqBrA ZqBrB", "Authorization: Basic", "ZqBsA",
            "https://ZqUsrA@gitea.example/org/r.git", "https://ci:ZqPwdA@gitea.example/x", "--port", "8080");

    /** {@link #ARGUMENTS} joined and masked, each value whole. */
    public static final String MASKED = "--token *** GITEA_TOKEN=*** --api-key=*** -H Authorization: Bearer *** "
            + "Authorization: Basic *** https://***@gitea.example/org/r.git https://ci:***@gitea.example/x --port 8080";

    /** Every secret, and every part of one, that must never be shown. */
    public static final List<String> SECRETS = List.of("ZqTokA", "ZqTokB", "ZqEnvA", "ZqEnvB", "ZqOptA", "ZqOptB",
            "ZqBrA", "ZqBrB", "ZqBsA", "ZqUsrA", "ZqPwdA");

    private SecretArguments() {
    }

    public static String[] array() {
        return ARGUMENTS.toArray(String[]::new);
    }

    /** Fails when {@code shown} holds any secret of {@link #ARGUMENTS}, saying where. */
    public static void assertHidden(String shown, String where) {
        for (String secret : SECRETS) {
            assertFalse(shown.contains(secret), () -> where + " shows " + secret + ": " + shown);
        }
    }
}
