package dev.fleet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fleet.cli.exit.ExitCodes;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * A verb that runs out of memory or of stack (a look at a host of huge command lines, a heap given too little)
 * ends as any internal error does: one line on stderr and 70, never the JVM's stack trace and its exit 1.
 */
class OutOfMemoryTest {

    @Command(name = "exhausted")
    static final class Exhausted implements Callable<Integer> {

        private final Error error;

        Exhausted(Error error) {
            this.error = error;
        }

        @Override
        public Integer call() {
            throw error;
        }
    }

    @Test
    void outOfMemoryIsOneLineAndTheInternalErrorsCode() {
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new Exhausted(new OutOfMemoryError("Java heap space")))
                .setErr(new PrintWriter(err, true));

        assertEquals(ExitCodes.INTERNAL_ERROR, FleetCli.execute(cli));
        assertEquals("fleet: internal error: java.lang.OutOfMemoryError: Java heap space (FLEET_JAVA_OPTS=-Xmx... "
                + "gives the JVM more memory)" + System.lineSeparator(), err.toString());
    }

    @Test
    void aStackOverflowIsOneLineToo() {
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new Exhausted(new StackOverflowError())).setErr(new PrintWriter(err, true));

        assertEquals(ExitCodes.INTERNAL_ERROR, FleetCli.execute(cli));
        assertEquals("fleet: internal error: java.lang.StackOverflowError" + System.lineSeparator(), err.toString());
    }
}
