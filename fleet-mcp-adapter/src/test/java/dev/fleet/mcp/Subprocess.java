package dev.fleet.mcp;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** How tests start {@link TestServerMain} as a real server process: this JVM's java and class path. */
final class Subprocess {

    private Subprocess() {
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The arguments after {@code java}: class path, main class, the calls file and any flags. */
    static List<String> serverArguments(Path callsFile, String... flags) {
        return serverArguments(List.of(), callsFile, flags);
    }

    /** The same, with extra JVM options (a small heap, for instance) before the main class. */
    static List<String> serverArguments(List<String> jvmOptions, Path callsFile, String... flags) {
        // As the launcher does: the JVM's own output (a SIGQUIT thread dump) goes to stderr, never into the protocol.
        List<String> args = new ArrayList<>(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-XX:+DisplayVMOutputToStderr"));
        args.addAll(jvmOptions);
        args.addAll(List.of("-cp", System.getProperty("java.class.path"), TestServerMain.class.getName(),
                callsFile.toString()));
        args.addAll(List.of(flags));
        return args;
    }
}
