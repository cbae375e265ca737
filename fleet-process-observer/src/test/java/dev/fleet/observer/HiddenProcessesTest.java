package dev.fleet.observer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class HiddenProcessesTest {

    private static final String USER = "Name:\tjava\nUid:\t1000\t1000\t1000\t1000\nGroups:\t27 1000\n";
    private static final String ROOT = "Name:\tjava\nUid:\t0\t0\t0\t0\nGroups:\t0\n";

    private static String mounts(String procOptions) {
        return "sysfs /sys sysfs rw,nosuid 0 0\nproc /proc proc " + procOptions + " 0 0\ntmpfs /run tmpfs rw 0 0\n";
    }

    @Test
    void aPlainProcShowsEveryone() {
        assertFalse(HiddenProcesses.hideOthers(mounts("rw,nosuid,nodev,noexec,relatime"), USER));
        assertFalse(HiddenProcesses.hideOthers(mounts("rw,relatime,hidepid=0"), USER));
        assertFalse(HiddenProcesses.hideOthers(mounts("rw,relatime,hidepid=off"), USER));
    }

    @Test
    void hidepidHidesOthersFromAnOrdinaryUser() {
        assertTrue(HiddenProcesses.hideOthers(mounts("rw,relatime,hidepid=2"), USER));
        assertTrue(HiddenProcesses.hideOthers(mounts("rw,relatime,hidepid=invisible"), USER));
        assertTrue(HiddenProcesses.hideOthers(mounts("rw,relatime,hidepid=1,gid=50"), USER));
    }

    @Test
    void rootAndTheSeeingGroupStillSeeEveryone() {
        assertFalse(HiddenProcesses.hideOthers(mounts("rw,relatime,hidepid=2"), ROOT));
        assertFalse(HiddenProcesses.hideOthers(mounts("rw,relatime,hidepid=2,gid=27"), USER));
    }

    @Test
    void theTopmostProcMountDecides() {
        String stacked = mounts("rw,relatime,hidepid=2") + "proc /proc proc rw,relatime 0 0\n";
        assertFalse(HiddenProcesses.hideOthers(stacked, USER));
    }

    @Test
    void fieldsAreTheNonEmptyRunsBetweenSeparators() {
        assertEquals(List.of("proc", "/proc", "proc", "rw,hidepid=2"),
                HiddenProcesses.fields("proc /proc proc rw,hidepid=2", " "));
        assertEquals(List.of("27", "1000"), HiddenProcesses.fields("\t27  1000\t", " \t"));
        assertEquals(List.of(), HiddenProcesses.fields("", " "));
        assertEquals(List.of(), HiddenProcesses.fields(",,", ","));
    }
}
