package dev.fleet.observer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HiddenProcessesTest {

    private static final String USER = "Name:\tjava\nUid:\t1000\t1000\t1000\t1000\nGroups:\t27 1000\n";
    private static final String ROOT = "Name:\tjava\nUid:\t0\t0\t0\t0\nGroups:\t0\nCapEff:\t000001ffffffffff\n";
    /** Root with CAP_SYS_PTRACE dropped ({@code capsh --drop=cap_sys_ptrace}): hidepid hides other users from it. */
    private static final String ROOT_WITHOUT_PTRACE = "Name:\tjava\nUid:\t0\t0\t0\t0\nGroups:\t0\nCapEff:\t000001fffff7ffff\n";
    /** An ordinary user granted CAP_SYS_PTRACE alone sees everyone. */
    private static final String USER_WITH_PTRACE = "Name:\tjava\nUid:\t1000\t1000\t1000\t1000\nGroups:\t27 1000\n"
            + "CapEff:\t0000000000080000\n";

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

    /** In ptraceable mode the kernel asks ptrace alone: the mount's gid= group sees no more than anyone. */
    @Test
    void theSeeingGroupSeesNoMoreUnderPtraceable() {
        assertTrue(HiddenProcesses.hideOthers(mounts("rw,relatime,hidepid=ptraceable,gid=27"), USER));
        assertTrue(HiddenProcesses.hideOthers(mounts("rw,relatime,hidepid=4,gid=27"), USER));
        assertFalse(HiddenProcesses.hideOthers(mounts("rw,relatime,hidepid=invisible,gid=27"), USER));
        assertFalse(HiddenProcesses.hideOthers(mounts("rw,relatime,hidepid=ptraceable,gid=27"), USER_WITH_PTRACE));
    }

    @Test
    void whatHidepidShowsFollowsCapSysPtraceNotUidZero() {
        assertTrue(HiddenProcesses.hideOthers(mounts("rw,relatime,hidepid=2"), ROOT_WITHOUT_PTRACE));
        assertFalse(HiddenProcesses.hideOthers(mounts("rw,relatime,hidepid=2"), USER_WITH_PTRACE));
        assertFalse(HiddenProcesses.hideOthers(mounts("rw,relatime"), ROOT_WITHOUT_PTRACE));
    }

    @Test
    void theTopmostProcMountDecides() {
        String stacked = mounts("rw,relatime,hidepid=2") + "proc /proc proc rw,relatime 0 0\n";
        assertFalse(HiddenProcesses.hideOthers(stacked, USER));
    }

    private static String mountinfo(String superOptions) {
        return "22 1 0:21 / /sys rw,nosuid shared:7 - sysfs sysfs rw\n"
                + "23 1 0:22 / /proc rw,nosuid,nodev,noexec,relatime shared:13 - proc proc " + superOptions + "\n"
                + "24 23 0:23 / /proc/sys/fs/binfmt_misc rw,relatime shared:14 - autofs systemd-1 rw\n";
    }

    /** The probe: hidepid=2,subset=pid hides /proc/mounts itself, so the options come from mountinfo. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "rw,hidepid=invisible,subset=pid | user | true",
        "rw,hidepid=2,subset=pid         | user | true",
        "rw,hidepid=ptraceable           | user | true",
        "rw                              | user | false",
        "rw,subset=pid                   | user | false",
        "rw,hidepid=invisible,subset=pid | root | false",
        "rw,hidepid=2,gid=27             | user | false"})
    void mountinfoShowsHidepidWithSubsetPid(String superOptions, String who, boolean hidden) {
        assertEquals(hidden, HiddenProcesses.hideOthersByMountinfo(mountinfo(superOptions),
                "root".equals(who) ? ROOT : USER));
    }

    @Test
    void theTopmostProcMountInMountinfoDecides() {
        String stacked = mountinfo("rw") + "65 23 0:39 / /proc rw,relatime - proc proc rw,hidepid=invisible,subset=pid\n";
        assertTrue(HiddenProcesses.hideOthersByMountinfo(stacked, USER));
    }

    /** Options that cannot be read (no proc mount on /proc listed) may hide processes: fail closed. */
    @Test
    void noProcMountListedMayHideOthersFromAnOrdinaryUser() {
        assertTrue(HiddenProcesses.hideOthers("sysfs /sys sysfs rw 0 0\n", USER));
        assertTrue(HiddenProcesses.hideOthersByMountinfo("22 1 0:21 / /sys rw - sysfs sysfs rw\n", USER));
        assertFalse(HiddenProcesses.hideOthers("", ROOT));
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
