package dev.fleet.cli;

import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * The CLI's output printer: the only place in the CLI that opens standard output. Commands print
 * through picocli's writers, which are set from here. ({@code serve} over stdio leaves stdout to
 * the MCP server, which writes protocol bytes only.)
 */
final class StandardStreams {

    private StandardStreams() {
    }

    static PrintWriter out() {
        return new PrintWriter(new PrintStream(new FileOutputStream(FileDescriptor.out), true,
                StandardCharsets.UTF_8), true);
    }

    static PrintWriter err() {
        return new PrintWriter(System.err, true, StandardCharsets.UTF_8);
    }
}
