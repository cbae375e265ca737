package dev.fleet.domain.host;

import static dev.fleet.domain.host.HostFixture.entry;
import static dev.fleet.domain.host.HostFixture.server;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.fleet.domain.SecretMask;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * An entry whose args hold a secret matches its process, whose argv the observer masks ({@link
 * SecretMask#argvApart}) before anything sees it; and the secret is nowhere in what is shown.
 */
class SecretLaunchFormTest {

    private static final List<String> SECRETS = List.of("abc123", "xyz789", "s3cr3t");

    /** The argv as the observer hands it over: masked argument by argument. */
    private static String[] observed(String... argv) {
        List<String> masked = SecretMask.argvApart(List.of(argv));
        assertFalse(masked.equals(List.of(argv)), "the example holds a secret to mask");
        return masked.toArray(String[]::new);
    }

    @Test
    void anEntryWithASecretInItsArgsMatchesItsMaskedProcessAndTheSecretIsNeverShown() {
        ConfiguredServer token = entry(ClientKind.CLAUDE_CODE, "tracker", "/opt/tracker/bin/server",
                "--token=abc123", "--api-key", "s3cr3t");
        ConfiguredServer env = entry(ClientKind.CURSOR, "search", "env", "API_KEY=xyz789", "search-mcp");
        HostFixture host = new HostFixture().withInit().configure(token).configure(env)
                .client(1000, 500, 1000, Set.of(11L, 12L), "claude")
                .process(2000, 1000, 5_000, 11, observed("/opt/tracker/bin/server", "--token=abc123", "--api-key",
                        "s3cr3t"))
                .process(3000, 1, 4_000, 31, observed("env", "API_KEY=xyz789", "search-mcp"));

        HostReport report = host.report();

        assertEquals(ServerState.CURRENT, server(report, 2000).state());
        assertEquals("tracker", server(report, 2000).name());
        assertEquals(ServerState.ORPHANED, server(report, 3000).state());
        assertEquals("search", server(report, 3000).name());
        List<String> shown = new ArrayList<>();
        shown.add(HostReportDocument.canonicalJson(report));
        shown.add(report.toString());
        for (String text : shown) {
            for (String secret : SECRETS) {
                assertFalse(text.contains(secret), secret + " shown in " + text);
            }
        }
    }
}
