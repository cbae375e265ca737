package dev.fleet.cli.assess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.cli.testing.FleetJar;
import dev.fleet.cli.testing.TestFleets;
import dev.fleet.cli.testing.VerdictShape;
import dev.fleet.domain.Binding;
import dev.fleet.domain.ClientProvenance;
import dev.fleet.domain.CohortSource;
import dev.fleet.domain.Registration;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.domain.Transport;
import dev.fleet.registry.sqlite.SqliteRegistryWriter;
import dev.fleet.testing.MarkerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fleet assess} over real registry files and real processes that look like the five
 * default members (marker {@code sleep}s registered the way servers register themselves).
 */
class AssessIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final List<MarkerProcess> markers = new ArrayList<>();

    @AfterEach
    void stopMarkers() {
        markers.forEach(MarkerProcess::close);
    }

    /** The default five as processes whose command lines match the default patterns, each registered. */
    private Path registeredFleet(String cohort) throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        SqliteRegistryWriter writer = new SqliteRegistryWriter(registry);
        String bootId = Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).trim();
        String pidNamespace = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
        for (RosterMember member : Roster.defaultRoster().members()) {
            MarkerProcess server = MarkerProcess.servingRegistry(registry, member.profile());
            markers.add(server);
            Instant now = Instant.now().plusSeconds(1); // registered after its process started
            writer.register(Registration.builder().runtimeId("rt-" + server.pid()).identity(member)
                    .binding(Binding.DEFAULT).repositoryRoot("/checkout").pid(server.pid())
                    .cohort(cohort, CohortSource.ENV).clientProvenance(ClientProvenance.CLIENT_MANAGED)
                    .bootId(bootId).startupHead("0123456789abcdef0123456789abcdef01234567").transport(Transport.STDIO)
                    .status(RegistrationStatus.RUNNING).registeredAt(now).lastHeartbeatAt(now)
                    .pidNamespace(pidNamespace).build(), Optional.empty());
        }
        return registry;
    }

    @Test
    void aSatisfiedGateExitsZeroInBothFormats() throws Exception {
        Path registry = registeredFleet("it-cohort");

        String roster = TestFleets.roster(registry).toString();
        FleetJar.Run text = FleetJar.run("assess", "--registry", registry.toString(), "--roster", roster);
        FleetJar.Run json = FleetJar.run("assess", "--registry", registry.toString(), "--roster", roster,
                "--format", "json");

        assertEquals(0, text.exitCode(), text.stdout() + text.stderr());
        assertTrue(text.stdout().startsWith("GATE SATISFIED  inventory complete  5 running of 5 expected"),
                text.stdout());
        assertTrue(text.stdout().contains("gitea-merger      prgs-merger      running"), text.stdout());
        assertFalse(text.stdout().contains("\u001b["), "no colour when stdout is not a terminal");
        assertEquals(0, json.exitCode());
        JsonNode verdict = JSON.readTree(json.stdout());
        assertTrue(verdict.get("mutation_gate_satisfied").asBoolean());
        assertEquals(5, verdict.get("running_member_count").asInt());
        assertTrue(verdict.at("/observation/answered_by").isNull());
        assertEquals(registry.toString(), verdict.at("/observation/registry_path").asText());
        assertEquals("", json.stderr());
    }

    @Test
    void theTextNamesTheRegistryFileAndTheRosterAndCountsInTheRightNumber() throws Exception {
        Path registry = dir.resolve("one/control_plane.sqlite3");
        Files.createDirectories(registry.getParent());
        RosterMember author = Roster.defaultRoster().members().get(0);
        MarkerProcess server = MarkerProcess.servingRegistry(registry, author.profile());
        markers.add(server);
        Instant now = Instant.now().plusSeconds(1);
        new SqliteRegistryWriter(registry).register(Registration.builder().runtimeId("rt-" + server.pid())
                .identity(author).binding(Binding.DEFAULT).repositoryRoot("/checkout").pid(server.pid())
                .cohort("it-cohort", CohortSource.ENV).clientProvenance(ClientProvenance.CLIENT_MANAGED)
                .startupHead(TestFleets.HEAD).transport(Transport.STDIO).status(RegistrationStatus.RUNNING)
                .registeredAt(now).lastHeartbeatAt(now).build(), Optional.empty());
        Path roster = TestFleets.roster(registry, "{\"namespace\": \"gitea-author\", \"profile\": \"prgs-author\", "
                + "\"role\": \"author\"}", "one.json");

        FleetJar.Run named = FleetJar.run("assess", "--registry", registry.toString(), "--roster", roster.toString());
        FleetJar.Run fromEnvironment = FleetJar.run(Map.of("FLEET_ROSTER", roster.toString()), "assess",
                "--registry", registry.toString());
        FleetJar.Run builtIn = FleetJar.run("assess", "--registry", dir.resolve("missing.sqlite3").toString());

        assertTrue(named.stdout().contains("  registry 1 row  listing 1 server process\n"), named.stdout());
        assertTrue(named.stdout().contains("\nregistry file " + registry + "\nroster " + roster + " (--roster)\n"),
                named.stdout());
        assertTrue(fromEnvironment.stdout().contains("\nroster " + roster + " ($FLEET_ROSTER)\n"),
                fromEnvironment.stdout());
        assertTrue(builtIn.stdout().contains("\nregistry file " + dir.resolve("missing.sqlite3")
                + "\nroster built-in default\n"), builtIn.stdout());
        assertTrue(builtIn.stdout().contains("action: Make the registry file readable at the path shown"),
                builtIn.stdout());
    }

    @Test
    void anUnsatisfiedGateExitsOneWithEveryAnomalyAndItsAction() throws Exception {
        Path registry = registeredFleet("it-cohort");
        MarkerProcess stray = MarkerProcess.servingRegistry(registry, "prgs-stray");
        markers.add(stray);

        FleetJar.Run text = FleetJar.run("assess", "--registry", registry.toString(), "--roster",
                TestFleets.roster(registry).toString());

        assertEquals(1, text.exitCode(), text.stderr());
        assertTrue(text.stdout().startsWith("GATE NOT SATISFIED  blocked by unregistered_process"), text.stdout());
        assertTrue(text.stdout().contains("! unregistered_process: pid " + stray.pid() + " (no_registration)"),
                text.stdout());
        assertTrue(text.stdout().contains("  action: Find out who started the named server processes"), text.stdout());
        assertTrue(text.stdout().contains("unregistered processes:\n  pid " + stray.pid()), text.stdout());
    }

    @Test
    void theEnvironmentNamesTheRegistryAndTheRoster() throws Exception {
        Path registry = registeredFleet("it-cohort");
        Path roster = TestFleets.roster(registry,
                "{\"namespace\": \"gitea-author\", \"profile\": \"prgs-author\", \"role\": \"author\"}", "one.json");

        FleetJar.Run run = FleetJar.run(Map.of("FLEET_REGISTRY", registry.toString(), "FLEET_ROSTER",
                roster.toString()), "assess", "--format", "json");

        assertEquals(1, run.exitCode(), run.stderr());
        JsonNode verdict = JSON.readTree(run.stdout());
        assertEquals(1, verdict.get("expected_member_count").asInt());
        assertEquals(List.of("unexpected_member"), List.of(verdict.get("blocked_reason").asText()));
        assertEquals(4, verdict.get("unexpected_members").size(), "the other four are not in this roster");
    }

    @Test
    void aRegistryProblemIsABlockedVerdictNotAUsageError() throws Exception {
        Path missing = dir.resolve("missing.sqlite3");
        Path folder = Files.createDirectories(dir.resolve("a-folder"));
        Path corrupt = Files.writeString(dir.resolve("corrupt.sqlite3"), "not a database, just words");

        for (Path registry : List.of(missing, folder, corrupt)) {
            FleetJar.Run run = FleetJar.run("assess", "--registry", registry.toString(), "--format", "json");
            assertEquals(1, run.exitCode(), run.stderr());
            JsonNode verdict = JSON.readTree(run.stdout());
            assertEquals("registry_unreadable", verdict.get("blocked_reason").asText());
            assertEquals(0, verdict.get("running_member_count").asInt());
            assertEquals(0, verdict.get("members").size());
        }
        assertFalse(Files.exists(missing), "assessing never creates the registry");
        JsonNode corruptVerdict = JSON.readTree(FleetJar.run("assess", "--registry", corrupt.toString(),
                "--format", "json").stdout());
        assertEquals("corrupt", corruptVerdict.at("/registry/reason").asText());
    }

    @Test
    void badInputIsOneLineAndExitTwo() throws Exception {
        Path roster = Files.writeString(dir.resolve("roster.json"), "{\"binding\": {}}");
        for (FleetJar.Run run : List.of(
                FleetJar.run("assess", "--roster", roster.toString()),
                FleetJar.run("assess", "--roster", dir.resolve("none.json").toString()),
                FleetJar.run("assess", "--format", "xml"),
                FleetJar.run("assess", "--registry"))) {
            assertEquals(2, run.exitCode(), run.stderr());
            assertEquals(1, run.stderrLines().size(), run.stderr());
            assertEquals("", run.stdout());
        }
    }

    /** The probe: five rows naming five unrelated sleeps, and one naming pid 1, opened the gate. */
    @Test
    void rowsNamingSleepsAndInitAreNoFleet() throws Exception {
        Path registry = dir.resolve("control_plane.sqlite3");
        SqliteRegistryWriter writer = new SqliteRegistryWriter(registry);
        String bootId = Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).trim();
        for (RosterMember member : Roster.defaultRoster().members()) {
            MarkerProcess sleep = MarkerProcess.start(MarkerProcess.marker());
            markers.add(sleep);
            Instant now = Instant.now().plusSeconds(1); // registered after the sleep started, as the probe did
            writer.register(UnbelievableEvidenceIT.row(member, "rt-" + sleep.pid(), sleep.pid(), now, bootId),
                    Optional.empty());
        }
        RosterMember author = Roster.defaultRoster().members().get(0);
        writer.register(UnbelievableEvidenceIT.row(author, "rt-init", 1, Instant.now(), bootId), Optional.empty());

        FleetJar.Run assess = FleetJar.run("assess", "--registry", registry.toString(), "--roster",
                TestFleets.roster(registry).toString(), "--format", "json");

        assertEquals(1, assess.exitCode(), assess.stderr());
        JsonNode verdict = JSON.readTree(assess.stdout());
        assertEquals(List.of(), VerdictShape.problems(verdict));
        assertEquals("registration_unconfirmed", verdict.get("blocked_reason").asText(), verdict.toString());
        assertEquals(0, verdict.get("running_member_count").asInt());
        assertEquals(6, verdict.get("unverified_registrations").size());
        verdict.get("unverified_registrations").forEach(flagged ->
                assertEquals("not_a_server_process", flagged.get("reason").asText(), flagged.toString()));
    }
}
