package dev.fleet.observer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The byte-level readers: stat lines, cmdline joining, auxv and pid names. */
class ParsingTest {

    @Test
    void startTicksIsField22CountedFromTheLastParenthesis() {
        assertEquals(987, startTicks(FakeProcTest.stat(1, "plain", 987)));
        assertEquals(55, startTicks(FakeProcTest.stat(1, "a b) S 1 2 (c", 55)));
        assertEquals(7, startTicks(FakeProcTest.stat(1, ")", 7)));
        assertEquals(0, startTicks(FakeProcTest.stat(1, "", 0)));
    }

    @Test
    void aRealKernelStatLineParses() {
        String line = "4518 (sleep) S 1 4518 4518 0 -1 4194304 94 0 0 0 0 0 0 0 20 0 1 0 45522 5726208 "
                + "228 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n";
        assertEquals(45522, startTicks(line));
    }

    @Test
    void theParentPidIsField4CountedFromTheLastParenthesis() {
        String line = "4518 (a) b) S 1 2 (c) S 4242 4518 4518 0 -1 4194304 94 0 0 0 0 0 0 0 20 0 1 0 45522 5726208\n";
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        assertEquals(4242, ProcStat.parentPid(bytes, bytes.length));
        byte[] kernel = FakeProcTest.stat(1, "plain", 987).getBytes(StandardCharsets.UTF_8);
        assertEquals(28, ProcStat.parentPid(kernel, kernel.length), "field 4 of the fake line is 4 * 7");
        byte[] cut = "12 (short) S".getBytes(StandardCharsets.UTF_8);
        assertEquals(-1, ProcStat.parentPid(cut, cut.length));
    }

    @Test
    void thisProcesssParentIsTheOneTheJdkNames() {
        assertEquals(ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L),
                new OwnParent().pid().orElse(-1L));
    }

    @Test
    void anUnparseableStatLineGivesMinusOne() {
        assertEquals(-1, startTicks("12 (no closing paren S 1 2"));
        assertEquals(-1, startTicks("12 (short) S 1 2 3"));
        assertEquals(-1, startTicks(FakeProcTest.stat(1, "x", 5).replace(" 5 ", " -5 ")));
        assertEquals(-1, startTicks(""));
    }

    @Test
    void bootTimeIsTheBtimeLine() {
        assertEquals(1795992728L, bootTime("cpu  1 2\ncpu0 1 2\nintr 1 2\nctxt 9\nbtime 1795992728\nprocesses 5\n"));
        assertEquals(42, bootTime("btime 42"));
        assertEquals(-1, bootTime("cpu 1\nprocesses 5\n"));
        assertEquals(-1, bootTime("xbtime 42\n"));
    }

    @Test
    void commandLineArgumentsAreJoinedBySingleSpacesWithoutTheTerminator() {
        assertEquals("sleep 60", join("sleep\0" + "60\0"));
        assertEquals("a  b", join("a\0\0b\0"));
        assertEquals("rewritten title", join("rewritten title"));
        assertEquals("", join(""));
        assertEquals("caf\u00e9 \u2603", join("caf\u00e9\0\u2603\0"));
    }

    @Test
    void clockTicksComeFromTheAuxiliaryVector() {
        ByteBuffer auxv = ByteBuffer.allocate(8 * 8).order(ByteOrder.nativeOrder());
        auxv.putLong(6).putLong(4096).putLong(17).putLong(250).putLong(0).putLong(0);
        assertEquals(250, ClockTicks.fromAuxv(auxv.array(), true));

        ByteBuffer noClock = ByteBuffer.allocate(4 * 4).order(ByteOrder.nativeOrder());
        noClock.putInt(6).putInt(4096).putInt(0).putInt(0);
        assertEquals(ClockTicks.LINUX_DEFAULT, ClockTicks.fromAuxv(noClock.array(), false));
        assertEquals(ClockTicks.LINUX_DEFAULT, ClockTicks.fromAuxv(new byte[3], true));
    }

    @Test
    void onlyAllDigitNamesArePids() {
        assertEquals(1, ProcfsScan.pidOf("1"));
        assertEquals(4194304, ProcfsScan.pidOf("4194304"));
        assertEquals(-1, ProcfsScan.pidOf("self"));
        assertEquals(-1, ProcfsScan.pidOf("thread-self"));
        assertEquals(-1, ProcfsScan.pidOf("12a"));
        assertEquals(-1, ProcfsScan.pidOf(""));
    }

    private static long startTicks(String stat) {
        byte[] bytes = stat.getBytes(StandardCharsets.UTF_8);
        return ProcStat.startTicks(bytes, bytes.length);
    }

    private static long bootTime(String stat) {
        byte[] bytes = stat.getBytes(StandardCharsets.UTF_8);
        return ProcStat.bootTimeSeconds(bytes, bytes.length);
    }

    private static String join(String cmdline) {
        byte[] bytes = cmdline.getBytes(StandardCharsets.UTF_8);
        return CommandLines.join(bytes, bytes.length);
    }
}
