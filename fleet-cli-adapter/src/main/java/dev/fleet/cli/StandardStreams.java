package dev.fleet.cli;

import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * The only place that touches the process's standard output. Commands print through picocli's
 * writers, which are set from here; {@code serve} over stdio takes the raw stream for protocol
 * bytes and sends {@code System.out} to stderr, so no library can corrupt the JSON-RPC stream.
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

    /** Hands standard output to a protocol and points {@code System.out} at stderr from now on. */
    static OutputStream takeForProtocol() {
        OutputStream protocol = new FileOutputStream(FileDescriptor.out);
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8));
        return protocol;
    }
}
