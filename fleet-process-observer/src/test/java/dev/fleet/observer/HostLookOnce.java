package dev.fleet.observer;

import dev.fleet.domain.host.ClientKind;
import dev.fleet.domain.host.ConfiguredServer;
import dev.fleet.domain.host.HostInventory;
import dev.fleet.domain.host.HostServer;
import dev.fleet.domain.inventory.HostInventoryService;
import dev.fleet.domain.port.in.HostInventoryUseCase;
import dev.fleet.domain.port.out.ClientConfigurations;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * {@code fleet host}'s look and classification once, over this host's {@code /proc}, with one configured entry (the
 * command and args after the server's pid); prints what it made of that server: {@code state=... client=seen|none
 * strays=N stop=nothing|some}. Run by {@link HidepidMountTest} as another user in a pid namespace of its own.
 */
public final class HostLookOnce {

    private HostLookOnce() {
    }

    public static void main(String[] args) {
        long server = Long.parseLong(args[0]);
        List<String> form = Arrays.asList(args).subList(1, args.length);
        ConfiguredServer entry = new ConfiguredServer(ClientKind.CLAUDE_CODE, "/nonexistent/.claude.json", "srv", null,
                form.get(0), form.subList(1, form.size()), List.of(form));
        ClientConfigurations configurations = (extra, project) -> new ClientConfigurations.Read(List.of(entry),
                List.of());
        HostInventory inventory = new HostInventoryService(configurations, new ProcfsHostProcessTable(), line -> false)
                .inventory(new HostInventoryUseCase.Request(List.of(), Path.of("/"), false));
        HostServer found = inventory.report().servers().stream().filter(s -> s.rootPid() == server).findFirst()
                .orElse(null);
        System.out.println("state=" + (found == null ? "unseen" : found.state().label()) + " client="
                + (found == null || found.clientPid() == null ? "none" : "seen") + " strays="
                + inventory.report().strays() + " stop="
                + (inventory.stopScript().contains("# nothing to stop\n") ? "nothing" : "some"));
    }
}
