package dev.fleet.observer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The small parsers of {@code fleet host}'s look, on text as the kernel writes it and on text it never would. */
class HostParsingTest {

    @Test
    void aPipeIsItsInodeAndNothingElseIsAPipe() {
        assertEquals(942649, Descriptors.pipeInode("pipe:[942649]"));
        assertEquals(-1, Descriptors.pipeInode("socket:[942655]"), "a socketpair end (libuv's stdio) is no pipe");
        assertEquals(-1, Descriptors.pipeInode("pipe:[]"));
        assertEquals(-1, Descriptors.pipeInode("pipe:[12a]"));
        assertEquals(-1, Descriptors.pipeInode("pipe:[99999999999999999999]"));
        assertEquals(-1, Descriptors.pipeInode("/tmp/pipe:[5]"));
        assertEquals(-1, Descriptors.pipeInode("anon_inode:[eventfd]"));
    }

    @Test
    void aSocketIsItsInodeAndAPipeIsNoSocket() {
        assertEquals(942655, Descriptors.socketInode("socket:[942655]"));
        assertEquals(-1, Descriptors.socketInode("pipe:[942649]"));
        assertEquals(-1, Descriptors.socketInode("socket:[]"));
        assertEquals(-1, Descriptors.socketInode("/run/user/1000/socket:[5]"));
    }

    @Test
    void aSocketNextToAStdinSocketIsTakenForItsPeer() {
        Channels channels = new Channels();
        channels.add(new Descriptors(false, -1, 100, -1, 102, true, 2, false));
        channels.add(new Descriptors(false, 7, -1, -1, -1, true, 2, false));

        assertTrue(channels.nearSocket(99));
        assertTrue(channels.nearSocket(101));
        assertFalse(channels.nearSocket(100), "the stdin's own socket writes to its peer, not to it");
        assertFalse(channels.nearSocket(102));
        assertTrue(channels.readPipe(7));
        assertFalse(channels.readPipe(100), "a socket is no pipe");
    }

    @Test
    void terminalsAreTheDevicesAShellHandsOn() {
        assertTrue(Descriptors.isTerminal("/dev/pts/0"));
        assertTrue(Descriptors.isTerminal("/dev/tty3"));
        assertTrue(Descriptors.isTerminal("/dev/console"));
        assertFalse(Descriptors.isTerminal("/dev/null"));
        assertFalse(Descriptors.isTerminal("/dev/ptmx"));
        assertFalse(Descriptors.isTerminal("pipe:[5]"));
    }

    @Test
    void fdinfoFlagsAreOctal() {
        assertEquals(01, flags("pos:\t0\nflags:\t01\nmnt_id:\t15\n"));
        assertEquals(02000001, flags("pos:\t0\nflags:\t02000001\nmnt_id:\t15\nino:\t942649\n"));
        assertEquals(0100000, flags("flags:\t0100000\n"));
        assertEquals(-1, flags("pos:\t0\nmnt_id:\t15\n"));
        assertEquals(-1, flags("pos:\t0\nflags:\t\n"));
    }

    @Test
    void statusGivesTheRealUidAndTheResidentBytes() {
        String status = "Name:\tsleep\nUmask:\t0022\nUid:\t1000\t0\t0\t0\nGid:\t1000\t1000\t1000\t1000\n"
                + "VmPeak:\t    8424 kB\nVmRSS:\t    1792 kB\nRssAnon:\t     128 kB\n";
        byte[] bytes = status.getBytes(StandardCharsets.UTF_8);
        assertEquals(1000, ProcStatus.realUid(bytes, bytes.length));
        assertEquals(1792L * 1024, ProcStatus.residentBytes(bytes, bytes.length));
        byte[] kernelThread = "Name:\tkthreadd\nUid:\t0\t0\t0\t0\nThreads:\t1\n".getBytes(StandardCharsets.UTF_8);
        assertEquals(0, ProcStatus.residentBytes(kernelThread, kernelThread.length));
        byte[] none = "Name:\tx\n".getBytes(StandardCharsets.UTF_8);
        assertEquals(-1, ProcStatus.realUid(none, none.length));
    }

    @Test
    void groupSessionAndKernelThreadAreReadAfterTheLastParenthesis() {
        byte[] stat = "42 (a) (b c) S 1 40 30 0 -1 2129984 0 0".getBytes(StandardCharsets.UTF_8);
        assertEquals(1, ProcStat.parentPid(stat, stat.length));
        assertEquals(40, ProcStat.processGroup(stat, stat.length));
        assertEquals(30, ProcStat.session(stat, stat.length));
        assertTrue(ProcStat.isKernelThread(stat, stat.length));
        byte[] user = "43 (node) S 1 43 43 0 -1 4194560 0 0".getBytes(StandardCharsets.UTF_8);
        assertFalse(ProcStat.isKernelThread(user, user.length));
    }

    private static long flags(String fdinfo) {
        byte[] bytes = fdinfo.getBytes(StandardCharsets.UTF_8);
        return PipeWriters.octalFlags(bytes, bytes.length);
    }
}
