package dev.fleet.observer;

import dev.fleet.domain.HostId;
import dev.fleet.domain.Text;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * This host's id (docs/CONTRACT.md, "Many hosts"), as servers record it and answerers report it:
 * {@code FLEET_HOST_ID} when set (for tests and containers, which may share a machine id), else
 * {@link HostId} over {@code /etc/machine-id}, else over the hostname. Never read from the registry.
 */
public final class HostIdentity {

    /** The setting that names this host's id outright. */
    public static final String HOST_ID_ENV = "FLEET_HOST_ID";
    private static final Path MACHINE_ID = Path.of("/etc/machine-id");

    private HostIdentity() {
    }

    /** This host's id from this process's environment and files; never null. */
    public static String ofThisHost() {
        return of(System.getenv(), MACHINE_ID, Path.of("/proc"));
    }

    static String of(Map<String, String> env, Path machineIdFile, Path procRoot) {
        String named = env.get(HOST_ID_ENV);
        if (!Text.isBlank(named)) {
            return Text.strip(named);
        }
        String fromMachine = HostId.fromMachineId(read(machineIdFile));
        return fromMachine != null ? fromMachine : HostId.fromHostname(HostFacts.read(procRoot).hostname());
    }

    private static String read(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
