package dev.fleet.cli.metrics;

import dev.fleet.cli.host.HostInventories;
import dev.fleet.cli.jar.BuildProperties;
import dev.fleet.cli.option.AssessFormat;
import dev.fleet.domain.Roster;
import dev.fleet.domain.host.HostInventory;
import dev.fleet.domain.host.HostReport;
import dev.fleet.domain.port.in.HostInventoryUseCase;
import dev.fleet.domain.verdict.Verdict;
import dev.fleet.metrics.BuildInfo;
import dev.fleet.metrics.Exposition;
import dev.fleet.metrics.HostLook;
import dev.fleet.metrics.MetricsFormat;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

/**
 * {@code assess --format prometheus|openmetrics}: the verdict as an exposition, with the host's strays
 * ({@code fleet_host_strays}), reached only for these formats.
 */
public final class MetricsAnswer {

    private MetricsAnswer() {
    }

    /** The exposition's bytes (UTF-8) of {@code verdict}, classified against {@code roster}, in {@code format}. */
    public static byte[] of(Verdict verdict, Roster roster, AssessFormat format) {
        MetricsFormat exposition = format == AssessFormat.OPENMETRICS ? MetricsFormat.OPENMETRICS
                : MetricsFormat.PROMETHEUS;
        // a look at the host that fails omits fleet_host_strays alone, with one warning line
        return Exposition.of(verdict, roster, buildInfo(), HostLook.orOmitted(host(roster), System.err), exposition)
                .body();
    }

    /**
     * A fresh look at this host's MCP servers, for {@code fleet_host_strays}: the user's configurations and
     * the current directory's project, as a plain {@code fleet host} reads them, the roster's own servers
     * left to the fleet's series.
     */
    public static Supplier<HostReport> host(Roster roster) {
        return () -> {
            HostInventory inventory = HostInventories.forThisHost(roster.serverProcessPatterns())
                    .inventory(new HostInventoryUseCase.Request(List.of(), Path.of("").toAbsolutePath(), false));
            if (!inventory.processTableRead()) {
                // Zero strays of a table never listed would be a false all-clear: the family is omitted instead.
                throw new IllegalStateException(String.join("; ", inventory.report().warnings()));
            }
            return inventory.report();
        };
    }

    /** What {@code fleet_build_info} names: this jar's version and commit. */
    public static BuildInfo buildInfo() {
        BuildProperties build = BuildProperties.read();
        return new BuildInfo(build.version(), build.commit());
    }
}
