package dev.fleet.bench;

import dev.fleet.domain.RegistryRead;
import dev.fleet.registry.sqlite.SqliteRegistryReader;
import dev.fleet.registry.sqlite.SqliteRegistryWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A SQLite registry of {@code size} synthetic rows ({@link SyntheticFleet}) read warm through the
 * reader, as an assessment and a listing read it: opening the file, the query and the rows in order.
 *
 * <pre>scripts/jmh.sh RegistryReadBenchmark</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RegistryReadBenchmark {

    @Param({"10000"})
    int size;

    private Scratch scratch;
    private SqliteRegistryReader reader;

    @Setup(Level.Trial)
    public void setUp() throws IOException, SQLException {
        scratch = Scratch.in(Path.of(System.getProperty("java.io.tmpdir")));
        new SqliteRegistryWriter(scratch.registry).migrate();
        RegistryEngines.fill(DriverManager.getConnection("jdbc:sqlite:" + scratch.registry), SyntheticFleet.rows(size));
        reader = new SqliteRegistryReader(scratch.registry);
        if (reader.readAll().rows().size() != size) {
            throw new IllegalStateException("the registry does not hold " + size + " rows");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        scratch.delete();
    }

    @Benchmark
    public RegistryRead readAll() {
        return reader.readAll();
    }
}
