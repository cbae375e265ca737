package dev.fleet.cli;

import dev.fleet.cli.relay.SdkChildServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code fleet serve ... -- COMMAND} for the relay's tests, and the servers they wrap. */
final class WrappedMembers {

    private WrappedMembers() {
    }

    /** An operator's own server on the MCP Java SDK ({@link SdkChildServer}), as a command line. */
    static List<String> sdkChild() {
        return List.of(FleetJar.javaBinary(), "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"), SdkChildServer.class.getName());
    }

    /** {@code fleet serve} for this registry and profile, wrapping {@code child}. */
    static List<String> wrapping(Path registry, String profile, List<String> child) {
        List<String> command = new ArrayList<>(ServeProcess.serveCommand(registry, profile));
        command.add("--");
        command.addAll(child);
        return command;
    }
}
