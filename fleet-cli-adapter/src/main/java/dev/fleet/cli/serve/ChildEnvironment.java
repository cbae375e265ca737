package dev.fleet.cli.serve;

import dev.fleet.domain.RosterMember;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The environment a member's wrapped server starts with (the contract, §12): the one {@code fleet}
 * was started with, not the launcher's JVM settings, plus {@code FLEET_PROFILE},
 * {@code FLEET_NAMESPACE} and {@code FLEET_ROLE} from the roster. Two JVM settings can only be
 * environment variables (HotSpot reads {@code _JAVA_SR_SIGNUM} from it, and the file-name charset
 * follows the locale alone: {@code sun.jnu.encoding} cannot be set on the command line); the
 * launcher names those it set in the JVM's arguments, with the value each had before, and they are
 * given back here. Nothing of that reaches the environment.
 */
public final class ChildEnvironment {

    /** The names the launcher set, space-separated ({@code -Dfleet.launcher.set=...}). */
    static final String SET = "fleet.launcher.set";
    /** The value a name had before the launcher set it; none when it was unset. */
    static final String WAS = "fleet.launcher.was.";

    private ChildEnvironment() {
    }

    /**
     * The changes to make to this process's environment for {@code member}'s server, given the JVM's
     * system properties: a null value removes the variable.
     */
    public static Map<String, String> changesFor(RosterMember member, Properties launcher) {
        Map<String, String> changes = new HashMap<>();
        for (String name : launcher.getProperty(SET, "").split(" ")) {
            if (!name.isBlank()) {
                changes.put(name, launcher.getProperty(WAS + name));
            }
        }
        changes.put("FLEET_PROFILE", member.profile());
        changes.put("FLEET_NAMESPACE", member.namespace());
        changes.put("FLEET_ROLE", member.role());
        return changes;
    }
}
