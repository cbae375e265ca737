package dev.fleet.observer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** CLK_TCK as read from /proc/self/auxv is what sysconf(_SC_CLK_TCK) answers (asked through getconf). */
@EnabledOnOs(OS.LINUX)
class ClockTicksTest {

    @Test
    void auxvAgreesWithGetconf() throws Exception {
        Process getconf = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
        String answer = new String(getconf.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        assertEquals(0, getconf.waitFor());

        assertEquals(Long.parseLong(answer), ClockTicks.perSecond(Path.of("/proc")));
    }
}
