package dev.fleet.observer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fleet.domain.port.out.HostProcessTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code fleet host}'s look says when the table it lists may leave out other users' processes (a hand-made
 * {@code /proc}): the classification must not take a process hidden from it for one that is gone. HidepidMountTest
 * shows the same over a real mount, where root may make one.
 */
@EnabledOnOs(OS.LINUX)
class PartialHostLookTest {

    private static final long OWN_PID = 4242;

    @TempDir
    Path proc;

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "rw,hidepid=invisible,subset=pid | 1000 | true",
        "rw,hidepid=2                    | 1000 | true",
        "rw,hidepid=2                    | 0    | false",
        "rw                              | 1000 | false",
    })
    void aLookIsPartialWhereProcHidesOtherUsersFromTheReader(String superOptions, int uid, boolean partial)
            throws IOException {
        Files.createSymbolicLink(proc.resolve("self"), Path.of(Long.toString(OWN_PID)));
        Files.writeString(proc.resolve("stat"), "cpu  1 2 3\nbtime 1700000000\n");
        Files.createDirectories(proc.resolve("sys/kernel/random"));
        Files.writeString(proc.resolve("sys/kernel/random/boot_id"), "0a1b2c3d-0000-4000-8000-000000000001\n");
        Path own = Files.createDirectories(proc.resolve(Long.toString(OWN_PID)));
        Files.writeString(own.resolve("cmdline"), "java\0Test\0");
        Files.writeString(own.resolve("stat"), HostFakeProcTest.stat(OWN_PID, "java", 1, OWN_PID, OWN_PID, 1));
        Files.writeString(own.resolve("status"), "Name:\tjava\nUid:\t" + uid + "\t" + uid + "\t" + uid + "\t" + uid
                + "\nGroups:\t27\nVmRSS:\t100 kB\nThreads:\t1\n");
        Files.createDirectories(own.resolve("fd"));
        Files.createDirectories(own.resolve("fdinfo"));
        Files.writeString(own.resolve("mountinfo"), "65 47 0:39 / /proc rw,relatime - proc proc " + superOptions + "\n");

        HostProcessTable.Look look = new ProcfsHostProcessTable(proc, OWN_PID, 100, 4096, 1_000_000).observe();

        assertEquals(1, look.processes().size(), look.warnings()::toString);
        assertEquals(partial, look.partial(), look.warnings()::toString);
    }
}
