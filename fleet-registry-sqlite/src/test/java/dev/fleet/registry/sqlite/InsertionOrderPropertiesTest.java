package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.fleet.domain.Lease;
import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.RegistrationStatus;
import dev.fleet.domain.RegistryRead;
import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Roster;
import dev.fleet.domain.Snapshot;
import dev.fleet.domain.verdict.FleetClassifier;
import dev.fleet.domain.verdict.VerdictDocument;
import dev.fleet.registry.schema.RegistryColumn;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One snapshot, one verdict, whatever order its rows were written in: the same rows inserted into a
 * real SQLite file in two physical orders (so the reader meets them in two rowid orders) must give
 * byte-identical verdict JSON, digest included. The rows are drawn from a few values per column so
 * that they tie on every key the lists sort by (the same namespace, profile, pid and runtime_id:
 * another tool's table need not have a primary key) and differ in some other column, the case that
 * once gave two digests for one snapshot.
 */
class InsertionOrderPropertiesTest {

    private static final Instant NOW = Instant.parse("2026-07-28T03:00:00Z");
    private static final String OWN_NAMESPACE = "pid:[4026531836]";
    private static final String OWN_HOST = "0123456789abcdef0123456789abcdef";
    private static final String BOOT = "6f1e3b2a-0000-4000-8000-000000000001";
    private static final Instant STARTED = NOW.minusSeconds(600);
    /** 7001 and 7002 are live servers, 7003 a live process that is none, 7100 a client that lives. */
    private static final List<ObservedProcess> PROCESSES = List.of(
            new ObservedProcess(7001, STARTED, "java -jar /opt/fleet.jar serve --profile prgs-author", "fleet", true),
            new ObservedProcess(7002, STARTED, "java -jar /opt/fleet.jar serve --profile prgs-reviewer", "fleet", true),
            new ObservedProcess(7003, STARTED, "sleep 600", "fleet", false),
            new ObservedProcess(7100, STARTED.minusSeconds(5), "claude", "fleet", false));

    @TempDir
    Path dir;

    @Test
    void rowsThatTieOnEverySortKeyGiveOneVerdictInEitherInsertionOrder() {
        qt().withExamples(200)
                .forAll(lists().of(integers().between(0, Integer.MAX_VALUE)).ofSizeBetween(2, 6), longs().all())
                .checkAssert((rowSeeds, shuffleSeed) -> {
                    List<Map<String, Object>> rows = rowSeeds.stream().map(InsertionOrderPropertiesTest::row).toList();
                    List<Map<String, Object>> shuffled = new ArrayList<>(rows);
                    Collections.shuffle(shuffled, new Random(shuffleSeed));
                    String written = verdictJson(fileOf(rows));
                    String reordered = verdictJson(fileOf(shuffled));
                    assertEquals(written, reordered, () -> "rows " + rows + "\nin the order " + shuffled);
                });
    }

    /** The listing sorts, whatever order the table holds its rows in. */
    @Test
    void theListingIsSortedWhateverTheTablesOrder() {
        Map<String, Object> later = row(0);
        later.put("runtime_id", "rt-later");
        later.put("registered_at", "2026-07-28T02:56:00Z");
        later.put("status", "running");
        Map<String, Object> earlier = new LinkedHashMap<>(later);
        earlier.put("runtime_id", "rt-earlier");
        earlier.put("registered_at", "2026-07-28T02:55:00Z");
        SqliteRegistryReader reader = new SqliteRegistryReader(fileOf(List.of(later, earlier)));

        assertEquals(List.of("rt-earlier", "rt-later"),
                reader.readAll().rows().stream().map(RegistryRow::runtimeId).toList());
        assertEquals(List.of("rt-earlier", "rt-later"), reader.read(RegistrationStatus.RUNNING)
                .rows().stream().map(RegistryRow::runtimeId).toList(), "a filtered listing is sorted too");
    }

    @Test
    void twoRowsEqualOnTheSortKeysButNotInTheirRootGiveOneDigest() {
        Map<String, Object> first = row(0);
        Map<String, Object> second = new LinkedHashMap<>(first);
        second.put("repository_root", "/elsewhere");
        assertEquals(verdictJson(fileOf(List.of(first, second))), verdictJson(fileOf(List.of(second, first))));
    }

    /** A row drawn from a few values per column, so that rows collide on every key and differ elsewhere. */
    private static Map<String, Object> row(int seed) {
        Random random = new Random(seed);
        String[][] members = {{"gitea-author", "prgs-author", "author"}, {"gitea-reviewer", "prgs-reviewer", "reviewer"},
                {"gitea-stray", "prgs-stray", "stray"}};
        String[] member = members[random.nextInt(members.length)];
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("runtime_id", pick(random, "rt-a", "rt-b"));
        row.put("namespace", member[0]);
        row.put("profile", member[1]);
        row.put("role", member[2]);
        row.put("remote", "prgs");
        row.put("org", "Scaled-Tech-Consulting");
        row.put("repo", pick(random, "Gitea-Tools", "Gitea-Tools", "Other-Repo"));
        row.put("repository_root", pick(random, "/checkout/a", "/checkout/b", null));
        row.put("pid", (long) pick(random, 7001, 7002, 7003, 7004));
        row.put("cohort_id", pick(random, "ppid:7100", "ppid:7200", null));
        row.put("cohort_source", pick(random, "env", "parent_process", "unknown"));
        row.put("client_provenance", pick(random, "client_managed", "operator_managed", null));
        row.put("boot_id", pick(random, BOOT, BOOT, null, "another-boot"));
        row.put("process_started_at", pick(random, null, "2026-07-28T02:50:00.000Z", "2026-07-28T02:50:00Z",
                "2026-07-28T02:40:00Z"));
        row.put("startup_head", pick(random, "82d71b7", "82d71b7", "a1b2c3d", null));
        row.put("transport", pick(random, "stdio", "stdio", "streamable_http"));
        row.put("status", pick(random, "running", "running", "stopped"));
        row.put("registered_at", pick(random, "2026-07-28T02:55:00.000Z", "2026-07-28T02:55:00Z",
                "2026-07-28T02:55:00+00:00", "2026-07-28T02:56:00Z"));
        row.put("last_heartbeat_at", pick(random, "2026-07-28T02:59:30.000Z", "2026-07-28T02:55:00Z"));
        row.put("stopped_at", pick(random, null, null, "2026-07-28T02:58:00Z"));
        row.put("pid_namespace", pick(random, OWN_NAMESPACE, OWN_NAMESPACE, null, "pid:[4026532000]"));
        row.put("endpoint", pick(random, null, null, "http://127.0.0.1:43615/mcp"));
        row.put("parent_pid", pick(random, null, 7100L, 7999L));
        row.put("parent_started_at", pick(random, null, "2026-07-28T02:49:55Z"));
        row.put("host_id", pick(random, null, OWN_HOST, OWN_HOST, "fedcba9876543210fedcba9876543210"));
        return row;
    }

    @SafeVarargs
    private static <T> T pick(Random random, T... values) {
        return values[random.nextInt(values.length)];
    }

    /** A fresh file whose table, like another tool's, has every column but no primary key, holding {@code rows} in order. */
    private Path fileOf(List<Map<String, Object>> rows) {
        try {
            Path file = Files.createTempFile(dir, "registry", ".sqlite3");
            Files.delete(file);
            String columns = RegistryColumn.ALL.stream()
                    .map(column -> column.sqlName() + (column.isInteger() ? " INTEGER" : " TEXT"))
                    .collect(Collectors.joining(", "));
            RawSqlite.execute(file, "CREATE TABLE mcp_server_runtimes (" + columns + ")");
            for (Map<String, Object> row : rows) {
                RawSqlite.insertRuntime(file, row);
            }
            return file;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static String verdictJson(Path file) {
        RegistryRead read = new SqliteRegistryReader(file).readAll();
        ProcessObservation observation = ProcessObservation.of(BOOT, "fleet-host", OWN_NAMESPACE, PROCESSES);
        Snapshot snapshot = new Snapshot(Roster.defaultRoster(), read, observation, NOW, "registry", null, OWN_HOST,
                Lease.DEFAULT);
        return VerdictDocument.canonicalJson(FleetClassifier.classify(snapshot));
    }
}
