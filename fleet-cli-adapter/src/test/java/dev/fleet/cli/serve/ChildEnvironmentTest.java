package dev.fleet.cli.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fleet.domain.RosterMember;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** What the launcher set for the JVM alone is given back from the JVM's arguments, and nothing else changes. */
class ChildEnvironmentTest {

    private static final RosterMember MEMBER = new RosterMember("gitea-author", "prgs-author", "author");

    @Test
    void anAddedNameIsRemovedAndAReplacedOneGetsItsValueBack() {
        Properties launcher = new Properties();
        launcher.setProperty(ChildEnvironment.SET, "_JAVA_SR_SIGNUM LC_ALL");
        launcher.setProperty(ChildEnvironment.WAS + "LC_ALL", "POSIX");

        Map<String, String> expected = new HashMap<>(roster());
        expected.put("_JAVA_SR_SIGNUM", null);
        expected.put("LC_ALL", "POSIX");
        assertEquals(expected, ChildEnvironment.changesFor(MEMBER, launcher));
    }

    @Test
    void withoutTheLauncherOnlyTheRostersVariablesAreSet() {
        assertEquals(roster(), ChildEnvironment.changesFor(MEMBER, new Properties()));
    }

    private static Map<String, String> roster() {
        return Map.of("FLEET_PROFILE", "prgs-author", "FLEET_NAMESPACE", "gitea-author", "FLEET_ROLE", "author");
    }
}
