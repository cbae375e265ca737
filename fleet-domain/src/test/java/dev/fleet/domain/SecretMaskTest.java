package dev.fleet.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The masking rules, one example each; {@link SecretMaskPropertiesTest} holds them over generated lines. */
class SecretMaskTest {

    @Test
    void anOptionsValueIsMaskedInEitherForm() {
        assertEquals("srv --token *** --port 8080", SecretMask.commandLine("srv --token abc123 --port 8080"));
        assertEquals("srv --api-key=*** -v", SecretMask.commandLine("srv --api-key=abc123 -v"));
        assertEquals("java -Ddb.password=*** -jar x.jar", SecretMask.commandLine("java -Ddb.password=hunter2 -jar x.jar"));
        assertEquals("srv --Client-SECRET ***", SecretMask.commandLine("srv --Client-SECRET s3"), "any case");
    }

    @Test
    void everySecretWordNamesASecretOption() {
        for (String word : List.of("token", "secret", "password", "passwd", "key", "auth", "credential")) {
            assertEquals("--my-" + word + " ***", SecretMask.commandLine("--my-" + word + " value"), word);
        }
        assertEquals("--profile prgs-author --verbose x", SecretMask.commandLine("--profile prgs-author --verbose x"));
    }

    @Test
    void aUrlsPasswordIsMaskedAndItsUserAndHostKept() {
        assertEquals("git clone https://ci:***@gitea.example/org/repo.git",
                SecretMask.commandLine("git clone https://ci:p4ss@gitea.example/org/repo.git"));
        assertEquals("--db=postgresql://fleet:***@db:5432/x,redis://:***@cache",
                SecretMask.commandLine("--db=postgresql://fleet:p@ss/w0rd@db:5432/x,redis://:hunter2@cache"));
        assertEquals("https://user@host:8080/x", SecretMask.commandLine("https://user@host:8080/x"), "no password");
    }

    /** A value that begins like an option, and one after empty tokens, is still the value. */
    @Test
    void theValueIsTheNextNonEmptyTokenWhateverItLooksLike() {
        assertEquals("--token ***", SecretMask.commandLine("--token --verbose"));
        assertEquals("--token  ***", SecretMask.commandLine("--token  s3cret"));
        assertEquals("--token *** ***", SecretMask.commandLine("--token --password hunter2"));
        assertEquals("run --token", SecretMask.commandLine("run --token"), "nothing follows");
    }

    /** An argument holding spaces is one value: hidden whole, where the joined line would show its tail. */
    @Test
    void argvMasksAValueHoldingSpacesWhole() {
        assertEquals("srv --password *** --port 1",
                SecretMask.argv(List.of("srv", "--password", "correct horse battery", "--port", "1")));
        assertEquals("srv --password *** horse battery", SecretMask.commandLine("srv --password correct horse battery"));
    }

    @Test
    void maskingAMaskedLineChangesNothing() {
        String once = SecretMask.argv(List.of("npx", "-y", "@acme/mcp", "--token", "t0k", "--url=https://u:p@h"));
        assertEquals("npx -y @acme/mcp --token *** --url=https://u:***@h", once);
        assertEquals(once, SecretMask.commandLine(once));
        assertFalse(once.contains("t0k"));
    }

    @Test
    void aLineWithoutOptionsOrUrlsIsReturnedAsItIs() {
        String line = "python3 server.py serve";
        assertEquals(line, SecretMask.commandLine(line));
        assertNull(SecretMask.commandLine(null));
        assertEquals("", SecretMask.argv(List.of()));
    }
}
