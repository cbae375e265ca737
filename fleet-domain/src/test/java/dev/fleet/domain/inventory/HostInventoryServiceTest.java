package dev.fleet.domain.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fleet.domain.host.ClientKind;
import dev.fleet.domain.host.ConfiguredServer;
import dev.fleet.domain.host.HostInventory;
import dev.fleet.domain.host.HostProcess;
import dev.fleet.domain.host.ServerState;
import dev.fleet.domain.port.in.HostInventoryUseCase;
import dev.fleet.domain.port.out.ClientConfigurations;
import dev.fleet.domain.port.out.HostProcessTable;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The use case hands the request to the configurations, looks once, and classifies what both gave. */
class HostInventoryServiceTest {

    private static HostProcess process(long pid, long parent, long ticks, boolean terminal, List<String> argv) {
        return new HostProcess(pid, parent, pid, pid, 1000, ticks, Instant.EPOCH.plusSeconds(ticks), argv, terminal,
                terminal ? null : 10L + pid, !terminal, Set.of(), 0, true);
    }

    @Test
    void itComposesTheConfigurationsAndTheProcessTable() {
        List<Object> asked = new ArrayList<>();
        ClientConfigurations configurations = (extra, project) -> {
            asked.add(extra);
            asked.add(project);
            return new ClientConfigurations.Read(List.of(new ConfiguredServer(ClientKind.GEMINI, "/h/.gemini/settings.json",
                    "fs", null, "mcp-fs", List.of(), List.of(List.of("mcp-fs")))), List.of("a.json: unreadable"));
        };
        List<HostProcess> processes = List.of(
                process(100, 1, 10, true, List.of("gemini")),
                process(200, 100, 20, false, List.of("mcp-fs")),
                process(300, 1, 5, false, List.of("mcp-fs")),
                process(400, 100, 30, false, List.of("java", "-jar", "fleet.jar", "serve")));
        // The table tests the command lines as it reads them, secrets and all: here, as shown.
        HostProcessTable table = fleetServer -> new HostProcessTable.Look(processes, processes.stream()
                .filter(process -> fleetServer.test(process.commandLine())).map(HostProcess::pid)
                .collect(Collectors.toSet()), "B007-ab", 999, List.of("/proc/7: unreadable"), true, false);

        HostInventory inventory = new HostInventoryService(configurations, table, line -> line.contains("fleet.jar serve"))
                .inventory(new HostInventoryUseCase.Request(List.of(Path.of("/x.json")), Path.of("/work"), true));

        assertEquals(List.of(List.of(Path.of("/x.json")), Path.of("/work")), asked);
        assertEquals(List.of(ServerState.CURRENT, ServerState.ORPHANED),
                inventory.report().servers().stream().map(server -> server.state()).toList());
        assertEquals(List.of("a.json: unreadable", "/proc/7: unreadable"), inventory.report().warnings());
        assertEquals(1, inventory.report().strays());
        assertEquals(true, inventory.stopScript().contains("made on boot b007-ab"));
    }

    /**
     * A table that says it may hide processes (hidepid) is classified as one: the server whose parent it does not
     * list is no orphan, since that parent may be live.
     */
    @Test
    void aPartialTableIsClassifiedAsOne() {
        ClientConfigurations configurations = (extra, project) -> new ClientConfigurations.Read(List.of(
                new ConfiguredServer(ClientKind.GEMINI, "/h/.gemini/settings.json", "fs", null, "mcp-fs", List.of(),
                        List.of(List.of("mcp-fs")))), List.of());
        List<HostProcess> processes = List.of(process(200, 150, 20, false, List.of("mcp-fs")));
        HostProcessTable table = fleetServer -> new HostProcessTable.Look(processes, Set.of(), "B007-ab", 999,
                List.of("/proc is mounted with hidepid: other users' processes are not shown"), true, true);

        HostInventory inventory = new HostInventoryService(configurations, table, line -> false)
                .inventory(new HostInventoryUseCase.Request(List.of(), Path.of("/work"), false));

        assertEquals(List.of(ServerState.CURRENT),
                inventory.report().servers().stream().map(server -> server.state()).toList());
        assertEquals(0, inventory.report().strays());
    }

    /** A table that could not be listed shows no stray, and proves none absent. */
    @Test
    void aProcessTableThatCouldNotBeListedProvesNoStrayAbsent() {
        ClientConfigurations configurations = (extra, project) -> new ClientConfigurations.Read(List.of(), List.of());
        HostProcessTable table = fleetServer -> HostProcessTable.Look.unread("B007-ab", 999,
                List.of("the process table /proc could not be read: it belongs to another pid namespace"));

        HostInventory inventory = new HostInventoryService(configurations, table, line -> false)
                .inventory(new HostInventoryUseCase.Request(List.of(), Path.of("/work"), false));

        assertEquals(0, inventory.report().strays());
        assertEquals(false, inventory.processTableRead());
        assertEquals(false, inventory.provesNoStray());
        assertEquals(List.of("the process table /proc could not be read: it belongs to another pid namespace"),
                inventory.report().warnings());
    }
}
