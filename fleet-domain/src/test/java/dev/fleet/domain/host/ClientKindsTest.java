package dev.fleet.domain.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.fleet.testing.Patience;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** A client is named by its executable or script (§14, "Client kind"), exactly: code is not codex. */
class ClientKindsTest {

    private static List<String> argv(String line) {
        return Arrays.asList(line.split("\\|"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
            "claude;claude-code",
            "/home/u/.local/bin/claude|--resume;claude-code",
            "node|/home/u/.npm-global/bin/claude;claude-code",
            "node|--no-warnings|/usr/lib/node_modules/.bin/gemini;gemini",
            "claude --dangerously-skip-permissions;claude-code",
            "/usr/bin/claude-desktop;claude-desktop",
            "/Applications/Claude.app/Contents/MacOS/Claude;claude-desktop",
            "/usr/share/cursor/cursor|--no-sandbox;cursor",
            "/usr/share/code/code|--type=utility;vscode",
            "/usr/lib/node_modules/@openai/codex/vendor/x86_64-unknown-linux-musl/codex/codex;codex",
            "/usr/bin/zed;zed",
            "/usr/libexec/zed-editor;zed",
            "gemini;gemini",
            "/usr/local/bin/goose|session;goose",
            "/bin/bash|/tmp/x/bin/claude;claude-code",
            "sh|-e|/opt/bin/codex|exec;codex",
            "/usr/bin/zsh|/home/u/bin/gemini;gemini",
    })
    void aKnownClientIsNamedByItsProgram(String line, String label) {
        assertEquals(label, ClientKinds.of(argv(line)).label());
    }

    @ParameterizedTest
    @ValueSource(strings = {"codes", "/usr/bin/vscode-helper", "my-agent", "node|/srv/app.js", "claude.sh",
            "python3|-m|claude_wrapper", "/usr/lib/systemd/systemd|--user", "bash|-c|claude", "sh|-lc|claude", "bash|-ec|claude|x", "bash|-o|posix", ""})
    void anythingElseIsOfNoKnownKind(String line) {
        assertNull(ClientKinds.of(line.isEmpty() ? List.of() : argv(line)));
    }

    /**
     * Any user's shell may carry options of 128 KiB ({@code -ccc…c!}), which a backtracking regular expression
     * took seconds each to refuse (the host audit: one such process stalled a look past a minute): the options are
     * read in one pass, and such a look ends at once.
     */
    @Test
    void aHugeShellOptionIsReadInOnePass() {
        List<String> argv = new ArrayList<>(List.of("sh"));
        for (int i = 0; i < 7; i++) {
            argv.add("-" + "c".repeat(131_000) + "!");
        }
        argv.add("/opt/bin/claude");

        ClientKind kind = assertTimeoutPreemptively(Patience.scaled(Duration.ofSeconds(20)), () -> ClientKinds.of(argv));

        assertEquals(ClientKind.CLAUDE_CODE, kind, "not options: the script after them names the client");
        assertNull(ClientKinds.of(List.of("sh", "-e" + "x".repeat(131_000) + "c", "claude")), "an option holding c");
    }
}
