package dev.fleet.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.fleet.testing.Patience;
import dev.fleet.testing.SecretArguments;
import java.time.Duration;
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
            https://***@host:8080/x                                       | https://user@host:8080/x
            git clone https://***@github.com/org/repo.git                 | git clone https://ghp_t0k3n@github.com/org/repo.git
            npx -y https://unpkg.com/@acme/mcp@1.2.0                      | npx -y https://unpkg.com/@acme/mcp@1.2.0
            https://***@h                                                 | https://u:@h
            env GITEA_TOKEN=*** API_KEY=*** db_Password=*** A=b srv       | env GITEA_TOKEN=abc API_KEY=def db_Password=ghi A=b srv
            curl -H Authorization: Bearer *** https://h/x                 | curl -H Authorization: Bearer eyJ.x.y https://h/x
            curl -H Authorization:Basic *** -u x                          | curl -H Authorization:Basic dTpw -u x
            srv --header=Authorization: bearer *** --port 1               | srv --header=Authorization: bearer abc --port 1
            https://h/x?api_key=***                                       | https://h/x?api_key=abc
            https://u:***@h/?token=***                                    | https://u:pw@h/?token=abc
            --token ***                                                   | --token --verbose
            '--token  ***'                                                | '--token  s3cret'
            --token *** ***                                               | --token --password hunter2
            run --token                                                   | run --token
            --profile prgs-author --verbose x                             | --profile prgs-author --verbose x
            """)
    void aCommandLineIsMasked(String masked, String line) {
        assertEquals(masked, SecretMask.commandLine(line));
    }

    /**
     * A script's words are apart by tabs and newlines as much as by spaces, and a shell drops the quotes around an
     * option: each secret is hidden, the separators kept as written. Each leaked before.
     */
    @Test
    void aScriptsWordsAreApartByTabsAndNewlinesAndQuotesAroundAnOptionAreDropped() {
        assertEquals("sh -c cd /srv\nX=1\nGITEA_TOKEN=*** srv",
                SecretMask.argv(List.of("sh", "-c", "cd /srv\nX=1\nGITEA_TOKEN=abc srv")));
        assertEquals("X=1\tAPI_KEY=*** srv", SecretMask.commandLine("X=1\tAPI_KEY=abc srv"));
        assertEquals("srv --password\t*** --port 1", SecretMask.commandLine("srv --password\tsekret --port 1"));
        assertEquals("sh -c curl -H 'Authorization: Bearer\t***",
                SecretMask.argv(List.of("sh", "-c", "curl -H 'Authorization: Bearer\tabc'")));
        assertEquals("sh -c srv \"--token\" *** '--api-key' *** -v",
                SecretMask.argv(List.of("sh", "-c", "srv \"--token\" abc '--api-key' def", "-v")));
    }

    @Test
    void everySecretWordNamesASecretOption() {
        for (String word : List.of("token", "secret", "password", "passwd", "key", "auth", "credential")) {
            assertEquals("--my-" + word + " ***", SecretMask.commandLine("--my-" + word + " value"), word);
        }
    }

    /**
     * An argument holding spaces is one value, or begins with one that runs to its end: hidden whole in every
     * form, where the joined line (whose arguments cannot be told apart) shows the tail. Deeper inside an
     * argument (a script), a value is one word.
     */
    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', textBlock = """
            srv --password *** --port 1                    | srv,--password,correct horse battery,--port,1
            srv --token=*** --port 1                       | srv,--token=correct horse battery,--port,1
            env API_KEY=*** srv                            | env,API_KEY=a b c,srv
            curl -H Authorization: Bearer *** https://h    | curl,-H,Authorization: Bearer a b c,https://h
            curl -H Authorization: Basic *** https://h     | curl,-H,Authorization: Basic,a b c,https://h
            srv --token *** --port 1                       | srv,--token a b,--port,1
            srv Bearer *** --port 1                        | srv,Bearer a b,--port,1
            sh -c srv --token *** b --port 1               | sh,-c,srv --token a b --port 1
            sh -c curl -H Authorization: Bearer *** url    | sh,-c,curl -H Authorization: Bearer x url
            sh -c GITEA_TOKEN=*** -v                       | sh,-c,GITEA_TOKEN=a srv --port 1,-v
            sh -c srv API_KEY=*** --port 1                 | sh,-c,srv API_KEY=a --port 1
            """)
    void argvMasksAValueHoldingSpacesWhole(String masked, String arguments) {
        assertEquals(masked, SecretMask.argv(List.of(arguments.split(",", -1))));
    }

    @Test
    void aJoinedLineShowsTheTailOfAValueHoldingSpaces() {
        assertEquals("srv --password *** horse battery", SecretMask.commandLine("srv --password correct horse battery"));
        assertEquals("Authorization: Bearer *** b", SecretMask.commandLine("Authorization: Bearer a b"));
    }

    /** The word before a value is read as written, even where it is itself a hidden value. */
    @Test
    void aValueThatIsItselfAnOpenerHidesTheNext() {
        assertEquals("--auth *** ***", SecretMask.commandLine("--auth Bearer abc"));
        assertEquals("--token *** ***", SecretMask.argv(List.of("--token", "x --password", "y z")));
    }

    /**
     * A hostile line costs time in proportion to its length: 1 MiB of URL marks, of words before one
     * {@code =}, of {@code @}s, of openers. A scan that went back over what it passed would take minutes on
     * some (10^11 steps), so the bound, scaled for a loaded host, only tells a hang from an answer.
     */
    @Test
    void maskingIsLinearInTheLinesLength() {
        int size = 1 << 20;
        assertTimeoutPreemptively(Patience.scaled(Duration.ofSeconds(30)), () -> {
            for (String unit : List.of("a://", "a ", "@", "a://b@", "x:/", "-", "-a ", "Bearer ", "a://b:")) {
                String line = unit.repeat(size / unit.length()) + "=key@h";
                String masked = SecretMask.commandLine(line);
                assertEquals(masked, SecretMask.commandLine(masked), unit);
                assertEquals(SecretMask.argv(List.of(line)), SecretMask.commandLine(SecretMask.argv(List.of(line))));
            }
        });
    }

    /** The arguments the end-to-end tests start real processes with: masked as they expect. */
    @Test
    void theSharedSecretArgumentsMaskAsTheTestsExpect() {
        assertEquals(SecretArguments.MASKED, SecretMask.argv(SecretArguments.ARGUMENTS));
        SecretArguments.assertHidden(SecretMask.argv(SecretArguments.ARGUMENTS), "argv");
    }

    @Test
    void maskingAMaskedLineChangesNothing() {
        String once = SecretMask.argv(List.of("npx", "-y", "@acme/mcp", "--token", "t0k", "--url=https://u:p@h"));
        assertEquals("npx -y @acme/mcp --token *** --url=https://u:***@h", once);
        assertEquals(once, SecretMask.commandLine(once));
        assertFalse(once.contains("t0k"));
    }

    /** A URL's user part holding an '=' before a secret NAME=: masked once, the secret's '=' is the name's. */
    @Test
    void anEqualsSignInAUrlsUserPartNamesNoSecret() {
        String once = SecretMask.commandLine("-://=-@API_KEY=-");
        assertEquals("-://***@API_KEY=***", once);
        assertEquals(once, SecretMask.commandLine(once));
    }

    /** A secret NAME= inside a URL's user part: once its value is hidden, the part before it is a user name, hidden too. */
    @Test
    void whatOneRuleHidesLeavesNoOtherRuleUndone() {
        String once = SecretMask.commandLine("----://-@API_KEY=-u:p@h");
        assertEquals("----://***@API_KEY=***", once);
        assertEquals(once, SecretMask.commandLine(once));
    }

    @Test
    void aLineWithoutOptionsOrUrlsIsReturnedAsItIs() {
        String line = "python3 server.py serve";
        assertEquals(line, SecretMask.commandLine(line));
        assertNull(SecretMask.commandLine(null));
        assertEquals("", SecretMask.argv(List.of()));
    }
}
