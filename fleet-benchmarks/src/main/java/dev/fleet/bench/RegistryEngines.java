package dev.fleet.bench;

import dev.fleet.domain.RegistryRow;
import dev.fleet.domain.Roster;
import dev.fleet.domain.assessment.AssessFleetInventoryService;
import dev.fleet.domain.port.out.RegistryEvidence;
import dev.fleet.registry.postgresql.PostgresLocation;
import dev.fleet.registry.postgresql.PostgresRegistryReader;
import dev.fleet.registry.postgresql.PostgresRegistryWriter;
import dev.fleet.registry.schema.RegistryColumn;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import dev.fleet.registry.sqlite.SqliteRegistryWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One assessment (read + observe + classify, in a warm process) of the same synthetic rows on each
 * engine: {@code RegistryEngines SQLITE_FILE postgresql://USER@127.0.0.1:PORT/DB SIZE RUNS}. Both
 * registries are migrated by their writers and filled by plain JDBC; the observation is the
 * synthetic one, so the figures differ only by the registry's read. Prints median milliseconds.
 */
public final class RegistryEngines {

    private RegistryEngines() {
    }

    public static void main(String[] args) throws Exception {
        Path sqlite = Path.of(args[0]);
        PostgresLocation postgres = PostgresLocation.parse(args[1]);
        int size = Integer.parseInt(args[2]);
        int runs = Integer.parseInt(args[3]);
        List<RegistryRow> rows = SyntheticFleet.rows(size);
        new SqliteRegistryWriter(sqlite).migrate();
        new PostgresRegistryWriter(postgres).migrate();
        fill(DriverManager.getConnection("jdbc:sqlite:" + sqlite), rows);
        fill(DriverManager.getConnection("jdbc:postgresql://" + postgres.host() + ":" + postgres.port() + "/"
                + postgres.database(), postgres.user(), System.getenv().getOrDefault("PGPASSWORD", "")), rows);
        report("sqlite", new SqliteRegistryReader(sqlite), size, runs);
        report("postgresql", new PostgresRegistryReader(postgres), size, runs);
    }

    /** {@code rows} into a migrated registry's table, by column name, in one transaction; closes the connection. */
    static void fill(Connection connection, List<RegistryRow> rows) throws SQLException {
        try (connection) {
            connection.setAutoCommit(false);
            String names = RegistryColumn.ALL.stream().map(RegistryColumn::sqlName).collect(Collectors.joining(", "));
            String marks = RegistryColumn.ALL.stream().map(column -> "?").collect(Collectors.joining(", "));
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO mcp_server_runtimes (" + names + ") VALUES (" + marks + ")")) {
                for (RegistryRow row : rows) {
                    for (int i = 0; i < RegistryColumn.ALL.size(); i++) {
                        insert.setObject(i + 1, RegistryColumn.ALL.get(i).valueOf(row));
                    }
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            connection.commit();
        }
    }

    private static void report(String engine, RegistryEvidence reader, int size, int runs) {
        AssessFleetInventoryService assessment = new AssessFleetInventoryService(Roster.defaultRoster(), reader,
                (patterns, pids, ancestors) -> SyntheticFleet.observation(size), Instant::now, null);
        double[] readMillis = new double[runs];
        double[] assessMillis = new double[runs];
        for (int i = 0; i < runs + 5; i++) {
            long start = System.nanoTime();
            int read = reader.readAll().rows().size();
            long afterRead = System.nanoTime();
            assessment.assess();
            long afterAssess = System.nanoTime();
            if (read != size) {
                throw new IllegalStateException(engine + " read " + read + " rows, not " + size);
            }
            if (i >= 5) {
                readMillis[i - 5] = (afterRead - start) / 1e6;
                assessMillis[i - 5] = (afterAssess - afterRead) / 1e6;
            }
        }
        System.out.printf("%s: %d rows, read %.1f ms, assessment (read + observe + classify) %.1f ms, medians of %d%n",
                engine, size, median(readMillis), median(assessMillis), runs);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
