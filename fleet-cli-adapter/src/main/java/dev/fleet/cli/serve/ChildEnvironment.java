package dev.fleet.cli.serve;

import dev.fleet.domain.RosterMember;
import java.util.HashMap;
import java.util.Map;

/**
 * The environment a member's wrapped server starts with (the contract, §12): the one {@code fleet}
 * was started with, not the launcher's JVM settings, plus {@code FLEET_PROFILE},
 * {@code FLEET_NAMESPACE} and {@code FLEET_ROLE} from the roster. The launcher notes what it set
 * ({@code FLEET_LAUNCHER_ADDED}, {@code FLEET_LAUNCHER_WAS_<NAME>}); that is taken back here.
 */
public final class ChildEnvironment {

    static final String ADDED = "FLEET_LAUNCHER_ADDED";
    static final String WAS = "FLEET_LAUNCHER_WAS_";

    private ChildEnvironment() {
    }

    /**
     * The changes to make to {@code environment} (this process's) for {@code member}'s server: a
     * null value removes the variable.
     */
    public static Map<String, String> changesFor(RosterMember member, Map<String, String> environment) {
        Map<String, String> changes = new HashMap<>();
        for (String name : environment.getOrDefault(ADDED, "").split(" ")) {
            if (!name.isBlank()) {
                changes.put(name, null);
            }
        }
        environment.forEach((name, value) -> {
            if (name.startsWith(WAS)) {
                changes.put(name.substring(WAS.length()), value);
                changes.put(name, null);
            }
        });
        changes.put(ADDED, null);
        changes.put("FLEET_PROFILE", member.profile());
        changes.put("FLEET_NAMESPACE", member.namespace());
        changes.put("FLEET_ROLE", member.role());
        return changes;
    }
}
