package dev.fleet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleet.cli.testing.FleetJar;
import dev.fleet.testing.Patience;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Bad input: one clear line on stderr, exit 2, nothing on stdout, never a stack trace. */
class UsageIT {

    static void assertOneLineUsageError(FleetJar.Run run) {
        assertEquals(2, run.exitCode(), run.stderr());
        assertEquals("", run.stdout());
        assertEquals(1, run.stderrLines().size(), run.stderr());
        assertTrue(run.stderr().startsWith("fleet: "), run.stderr());
        assertTrue(!run.stderr().contains("\tat "), run.stderr());
    }

    @Test
    void anUnknownVerb() {
        assertOneLineUsageError(FleetJar.run("bogus"));
    }

    @Test
    void aFamilyOfVerbsWithoutOneNamesThem() {
        FleetJar.Run alone = FleetJar.run("registry");
        assertOneLineUsageError(alone);
        assertEquals("fleet: registry needs a verb: migrate or list (fleet registry --help says more)\n", alone.stderr());
    }

    @Test
    void anUnknownOptionOrValue() {
        assertOneLineUsageError(FleetJar.run("roster", "--colour"));
        assertOneLineUsageError(FleetJar.run("processes", "--format", "yaml"));
    }

    @Test
    void serveRefusesAnUnknownProfileOrABadOptionBeforeTouchingTheRegistry(@TempDir Path dir) {
        Path registry = dir.resolve("r.sqlite3");
        FleetJar.Run unknown = FleetJar.run("serve", "--profile", "prgs-janitor", "--registry", registry.toString());
        assertOneLineUsageError(unknown);
        assertEquals("fleet: unknown profile 'prgs-janitor': the roster has prgs-author, prgs-reviewer, "
                + "prgs-controller, prgs-merger, prgs-reconciler\n", unknown.stderr());
        assertOneLineUsageError(FleetJar.run("serve", "--profile", "prgs-author", "--heartbeat-seconds", "0",
                "--registry", registry.toString()));
        assertOneLineUsageError(FleetJar.run("serve", "--profile", "prgs-author", "--transport", "carrier-pigeon"));
        assertOneLineUsageError(FleetJar.run("serve"));
        assertOneLineUsageError(FleetJar.run("serve", "--profile", "prgs-author", "--registry", registry.toString(),
                "--repository-root", dir.resolve("no-such-checkout").toString()));
        assertTrue(!Files.exists(registry), "nothing was registered");
    }

    /** An argument that begins with @ is that argument: fleet reads no argument file (picocli's threw, or hung on a FIFO). */
    @Test
    void anArgumentBeginningWithAnAtSignIsNeverAFileToRead(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("args"), "--format\njson\n"); // read, it would print the roster
        FleetJar.Run directory = FleetJar.run("roster", "--roster", "@" + dir);
        assertOneLineUsageError(directory);
        assertTrue(directory.stderr().contains("@" + dir), directory.stderr());
        assertOneLineUsageError(FleetJar.run("roster", "@" + dir.resolve("args")));
    }

    @Test
    void aMissingRosterFile(@TempDir Path dir) {
        FleetJar.Run run = FleetJar.run("roster", "--roster", dir.resolve("missing.json").toString());
        assertOneLineUsageError(run);
        assertTrue(run.stderr().contains("no such file"), run.stderr());
    }

    @ParameterizedTest
    @ValueSource(strings = {"{not json", "{\"binding\": {\"remote\": \"r\", \"org\": \"o\", \"repo\": \"p\"}, "
            + "\"members\": [{\"namespace\": \"a\", \"profile\": \"p\", \"role\": \"r\"}, "
            + "{\"namespace\": \"b\", \"profile\": \"p\", \"role\": \"r\"}]}"})
    void anInvalidRosterViaTheEnvironment(String content, @TempDir Path dir) throws Exception {
        Path roster = Files.writeString(dir.resolve("roster.json"), content);
        assertOneLineUsageError(FleetJar.run(Map.of("FLEET_ROSTER", roster.toString()), "roster"));
    }

    /**
     * A newcomer's mistakes in a roster file: one line naming the file and what is wrong in a reader's
     * words (where, as line and column), never Jackson's {@code [Source: ...]} or its class names.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"members\": []} | binding is required; members must list at least one member",
        "{ | invalid JSON: the file ends inside the object opened at line 1, column 1 (a closing } is missing) at line 1, column 2",
        "{\"members\": []} {} | invalid JSON: more JSON follows the first value (a roster file is one JSON object) at line 1, column 17",
    })
    void aRosterMistakeIsOneLineInTheReadersWords(String content, String what, @TempDir Path dir) throws Exception {
        Path roster = Files.writeString(dir.resolve("roster.json"), content);
        FleetJar.Run run = FleetJar.run("roster", "--roster", roster.toString());
        assertOneLineUsageError(run);
        assertEquals("fleet: roster " + roster + ": " + what + "\n", run.stderr());
    }

    /**
     * A pattern the linear-time engine cannot compile (here the back-reference behind issue 10's
     * hang) is a roster error on every path that loads a roster: before any registry is opened,
     * any process observed or any server registered.
     */
    @ParameterizedTest
    @ValueSource(strings = {"roster", "assess", "processes", "serve"})
    void aPatternRe2CannotCompileIsOneRosterError(String verb, @TempDir Path dir) throws Exception {
        Path roster = Files.writeString(dir.resolve("roster.json"), "{\"binding\": {\"remote\": \"r\", \"org\": "
                + "\"o\", \"repo\": \"p\"}, \"members\": [{\"namespace\": \"a\", \"profile\": \"prgs-author\", "
                + "\"role\": \"r\"}], \"server_process_patterns\": [\"(a)\\\\1\"]}");
        Path registry = dir.resolve("r.sqlite3");
        FleetJar.Run run = runWithRoster(verb, roster, registry);

        assertOneLineUsageError(run);
        assertEquals("fleet: roster " + roster + ": server_process_patterns[0] does not compile as a linear-time "
                + "(RE2) pattern: invalid escape sequence `\\1` in '(a)\\1'\n", run.stderr());
        assertTrue(!Files.exists(registry), "no registry was touched");
    }

    /**
     * A pattern beyond the contract's bounds (4,096 characters, 100 nested groups) is refused before
     * RE2J sees it: 20,000 nested parentheses overflowed its parser's stack, and a 900 KB pattern
     * took minutes to compile. One line quoting the pattern's start, exit 2, on every verb.
     */
    @ParameterizedTest
    @ValueSource(strings = {"roster", "assess", "processes", "serve"})
    void aPatternTooLongOrTooDeeplyNestedIsOneRosterError(String verb, @TempDir Path dir) throws Exception {
        String deep = "(".repeat(20_000) + "a" + ")".repeat(20_000);
        String nested = "(".repeat(101) + "a" + ")".repeat(101);
        for (String pattern : List.of(deep, nested)) {
            Path roster = Files.writeString(dir.resolve("roster.json"), "{\"binding\": {\"remote\": \"r\", "
                    + "\"org\": \"o\", \"repo\": \"p\"}, \"members\": [{\"namespace\": \"a\", \"profile\": "
                    + "\"prgs-author\", \"role\": \"r\"}], \"server_process_patterns\": [\"" + pattern + "\"]}");
            Path registry = dir.resolve("r.sqlite3");
            FleetJar.Run run = runWithRoster(verb, roster, registry);

            assertOneLineUsageError(run);
            String problem = pattern == deep ? "longer than 4096 characters (40001)" : "groups nested more than 100 deep";
            assertTrue(run.stderr().startsWith("fleet: roster " + roster + ": server_process_patterns[0] does not "
                    + "compile as a linear-time (RE2) pattern: " + problem + " in '(((("), run.stderr());
            assertTrue(run.stderr().length() < 600, run.stderr());
            assertTrue(!Files.exists(registry), "no registry was touched");
        }
    }

    /** {@code fleet VERB --roster ROSTER}, with the registry and profile the verb needs. */
    private static FleetJar.Run runWithRoster(String verb, Path roster, Path registry) {
        return switch (verb) {
            case "assess" -> FleetJar.run(verb, "--roster", roster.toString(), "--registry", registry.toString());
            case "serve" -> FleetJar.run(verb, "--roster", roster.toString(), "--registry", registry.toString(),
                    "--profile", "prgs-author");
            default -> FleetJar.run(verb, "--roster", roster.toString());
        };
    }

    @Test
    void theRosterVerbPrintsTheEmbeddedDefault() {
        FleetJar.Run run = FleetJar.run("roster");
        assertEquals(0, run.exitCode(), run.stderr());
        assertTrue(run.stdout().contains("gitea-reconciler  prgs-reconciler  reconciler"), run.stdout());
        assertTrue(run.stdout().contains("remote=prgs org=Scaled-Tech-Consulting repo=Gitea-Tools"), run.stdout());
    }

    @ParameterizedTest
    @ValueSource(strings = {"assess", "serve", "registry", "processes", "roster",
        "demo"})
    void helpWorksAsAVerbAndEveryVerbListsItsExitCodes(String verb) {
        FleetJar.Run help = FleetJar.run("help", verb);
        FleetJar.Run option = FleetJar.run(verb, "--help");

        assertEquals(0, help.exitCode(), help.stderr());
        assertEquals(option.stdout(), help.stdout(), "fleet help VERB is fleet VERB --help");
        assertTrue(help.stdout().contains("Exit codes:"), help.stdout());
        assertTrue(help.stdout().contains("-V, --version"), "inherited from fleet: " + help.stdout());
    }

    /**
     * Help on a verb that does not exist is an unknown verb: picocli let the word pass once --help was
     * there, and {@code fleet metrics --help} printed the top level's help with exit 0, as though
     * metrics were a verb a script could rely on.
     */
    @ParameterizedTest
    @ValueSource(strings = {"metrics --help", "registry lsit --help", "help registry lsit", "help assess wait",
        "help --bogus"})
    void helpOnAVerbThatDoesNotExistIsAUsageError(String command) {
        assertOneLineUsageError(FleetJar.run(command.split(" ")));
    }

    /** {@code fleet help registry list} is {@code fleet registry list --help}, not the family's help. */
    @ParameterizedTest
    @ValueSource(strings = {"registry list", "registry migrate", "completion bash"})
    void helpFollowsEveryWordToTheVerbItNames(String verb) {
        FleetJar.Run help = FleetJar.run(("help " + verb).split(" "));
        FleetJar.Run option = FleetJar.run((verb + " --help").split(" "));

        assertEquals(0, help.exitCode(), help.stderr());
        assertEquals(option.stdout(), help.stdout(), "fleet help " + verb + " is fleet " + verb + " --help");
        assertTrue(help.stdout().startsWith("Usage: fleet " + verb.replace(" bash", "") + " "), help.stdout());
    }

    @Test
    void aMistypedVerbOrOptionGetsASuggestion() {
        FleetJar.Run verb = FleetJar.run("asess");
        assertOneLineUsageError(verb);
        assertTrue(verb.stderr().contains("'asess'; did you mean assess"), verb.stderr());
        FleetJar.Run option = FleetJar.run("assess", "--formt", "json");
        assertOneLineUsageError(option);
        assertTrue(option.stderr().contains("did you mean --format?"), option.stderr());
    }

    /** An empty path (an unset shell variable, often) would be the current directory. */
    @ParameterizedTest
    @ValueSource(strings = {"registry list --registry=", "assess --registry=", "roster --roster=",
        "assess --roster=", "serve --profile prgs-author --registry=", "serve --profile prgs-author --repository-root=",
        "mcp-config --repository-root="})
    void anEmptyPathIsRefused(String command) {
        FleetJar.Run run = FleetJar.run(command.split(" "));
        assertOneLineUsageError(run);
        assertTrue(run.stderr().contains("an empty path is refused"), run.stderr());
    }

    /**
     * A path's bytes that are not UTF-8 are read as U+FFFD: another file than the one named would be
     * opened, and two names that differ only there would open the same registry. Refused, from the
     * option and from the variable alike (bash's $'\\xff' puts the byte in the argument).
     */
    @ParameterizedTest
    @ValueSource(strings = {"exec \"$0\" -jar \"$1\" registry migrate --registry \"$2\"$'\\xff'x.sqlite3",
        "FLEET_REGISTRY=\"$2\"$'\\xff'y.sqlite3 exec \"$0\" -jar \"$1\" registry migrate",
        "FLEET_ROSTER=\"$2\"$'\\xff'z.json exec \"$0\" -jar \"$1\" roster"})
    void aPathHoldingBytesThatAreNotTextIsRefused(String script, @TempDir Path dir) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", script, FleetJar.javaBinary(), FleetJar.JAR.toString(),
                dir + "/");
        builder.environment().put("LC_ALL", "C.UTF-8");
        builder.environment().put("XDG_STATE_HOME", dir.toString());
        builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Path out = Files.createTempFile("fleet-out", ".txt");
        Path err = Files.createTempFile("fleet-err", ".txt");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!process.waitFor(Patience.scaled(Duration.ofSeconds(60)).toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("did not finish: " + script);
        }
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        assertOneLineUsageError(new FleetJar.Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8), stderr));
        assertTrue(stderr.contains("bytes that are not text"), stderr);
        Files.delete(out);
        Files.delete(err);
        try (var files = Files.list(dir)) {
            assertEquals(List.of(), files.toList(), "nothing was created");
        }
    }

    @Test
    void errorsAboutAPathFromTheEnvironmentNameTheVariable(@TempDir Path dir) throws Exception {
        Path roster = dir.resolve("missing.json");
        FleetJar.Run fromRoster = FleetJar.run(Map.of("FLEET_ROSTER", roster.toString()), "roster");
        assertOneLineUsageError(fromRoster);
        assertEquals("fleet: roster " + roster + " (from $FLEET_ROSTER): no such file\n", fromRoster.stderr());

        Path registry = dir.resolve("missing.sqlite3");
        FleetJar.Run list = FleetJar.run(Map.of("FLEET_REGISTRY", registry.toString()), "registry", "list");
        assertEquals(1, list.exitCode(), list.stderr());
        assertEquals("fleet: registry " + registry + " (from $FLEET_REGISTRY) unreadable: missing\n", list.stderr());
        FleetJar.Run assess = FleetJar.run(Map.of("FLEET_REGISTRY", registry.toString()), "assess");
        assertEquals(1, assess.exitCode(), assess.stderr());
        assertTrue(assess.stdout().contains("registry file " + registry + " (from $FLEET_REGISTRY)\n"), assess.stdout());

        Path directory = Files.createDirectory(dir.resolve("a-directory"));
        FleetJar.Run migrate = FleetJar.run(Map.of("FLEET_REGISTRY", directory.toString()), "registry", "migrate");
        assertOneLineUsageError(migrate);
        assertTrue(migrate.stderr().endsWith(" (from $FLEET_REGISTRY)\n"), migrate.stderr());
    }

    /** The XDG spec: a relative XDG_STATE_HOME is ignored; it would put a registry wherever a command runs. */
    @Test
    void aRelativeStateHomeIsIgnoredWithOneWarning(@TempDir Path home) {
        FleetJar.Run run = FleetJar.run(Map.of("XDG_STATE_HOME", "relative/dir", "HOME", home.toString()),
                "registry", "migrate");
        Path expected = home.resolve(".local/state/gitea-tools/control_plane.sqlite3");
        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals("registry " + expected + " at schema version 7\n", run.stdout());
        assertEquals(List.of("fleet: warning: XDG_STATE_HOME is relative (relative/dir); ignored as the XDG spec "
                + "says, using ~/.local/state"), run.stderrLines());
        assertTrue(Files.isRegularFile(expected));
    }
}
