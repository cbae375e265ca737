package dev.fleet.cli.verb;

import dev.fleet.domain.host.HostReport;
import java.nio.file.Path;
import java.util.List;

/** The wiring of {@code fleet host}: the configuration readers and the process table, classified. */
final class HostInventory {

    private HostInventory() {
    }

    static HostReport report(List<Path> configs, Path project, List<String> rosterPatterns) {
        throw new UnsupportedOperationException("the readers, the observer and the classifier are merged next");
    }
}
