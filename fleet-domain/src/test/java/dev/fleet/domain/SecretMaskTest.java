package dev.fleet.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The masking rules, one example each; {@link SecretMaskPropertiesTest} holds them over generated lines. */
class SecretMaskTest {

    /**
     * A secret option's value in either form, in any case; a URL's password with its user and host
     * kept; and the value is the next non-empty token, whatever it looks like.
     */
    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', textBlock = """
            srv --token *** --port 8080                                   | srv --token abc123 --port 8080
            srv --api-key=*** -v                                          | srv --api-key=abc123 -v
            java -Ddb.password=*** -jar x.jar                             | java -Ddb.password=hunter2 -jar x.jar
            srv --Client-SECRET ***                                       | srv --Client-SECRET s3
            git clone https://ci:***@gitea.example/org/repo.git           | git clone https://ci:p4ss@gitea.example/org/repo.git
            --db=postgresql://fleet:***@db:5432/x,redis://:***@cache      | --db=postgresql://fleet:p@ss/w0rd@db:5432/x,redis://:hunter2@cache
            https://user@host:8080/x                                      | https://user@host:8080/x
            --token ***                                                   | --token --verbose
            '--token  ***'                                                | '--token  s3cret'
            --token *** ***                                               | --token --password hunter2
            run --token                                                   | run --token
            --profile prgs-author --verbose x                             | --profile prgs-author --verbose x
            """)
    void aCommandLineIsMasked(String masked, String line) {
        assertEquals(masked, SecretMask.commandLine(line));
    }

    @Test
    void everySecretWordNamesASecretOption() {
        for (String word : List.of("token", "secret", "password", "passwd", "key", "auth", "credential")) {
            assertEquals("--my-" + word + " ***", SecretMask.commandLine("--my-" + word + " value"), word);
        }
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
