package dev.fleet.cli.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** The {@code python3} some tests run their helpers in (src/test/python): standard library only. */
public final class Python3 {

    private Python3() {
    }

    /**
     * Fails under CI, and skips the test elsewhere, without a {@code python3} (3.9 or later) on PATH.
     *
     * @param needs what needs it, as the message says it: "the shutdown tests' wrapped server"
     */
    public static void require(String needs) throws InterruptedException {
        boolean runs;
        try {
            Process probe = new ProcessBuilder("python3", "-c", "import subprocess, sys; sys.exit(sys.version_info < (3, 9))")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            runs = probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0;
        } catch (IOException e) {
            runs = false;
        }
        if (runs) {
            return;
        }
        String message = needs + " needs python3 (3.9 or later) on PATH";
        if (System.getenv("CI") != null) {
            fail(message + " (required under CI)");
        }
        Assumptions.abort(message + "; skipped outside CI");
    }
}
