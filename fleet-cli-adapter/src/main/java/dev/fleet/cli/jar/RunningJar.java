package dev.fleet.cli.jar;

import dev.fleet.domain.Failures;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;

/** The jar this CLI runs from, and the java running it: what the verbs that start fleet again name. */
public final class RunningJar {

    /**
     * For every JVM that serves: what the JVM itself prints (a SIGQUIT thread dump, unified-logging
     * warnings) goes to stderr, since on stdio, stdout carries protocol bytes only. The launcher
     * passes the same options.
     */
    public static final List<String> SERVING_JVM_OPTIONS =
            List.of("-Xlog:disable", "-Xlog:all=error:stderr", "-XX:+DisplayVMOutputToStderr");
    /**
     * The JVM's suspend/resume signal, moved off SIGUSR2 (which a server takes as a stop) to a
     * real-time signal nobody sends by name, as the launcher does; JFR's sampler keeps working.
     */
    public static final String SUSPEND_SIGNAL_VARIABLE = "_JAVA_SR_SIGNUM";
    public static final String SUSPEND_SIGNAL = "62";

    private RunningJar() {
    }

    /** The jar's absolute, normalized path. */
    public static Path path() {
        try {
            return Path.of(RunningJar.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .toAbsolutePath().normalize();
        } catch (URISyntaxException | SecurityException | NullPointerException e) {
            throw new IllegalStateException("cannot locate the fleet jar: " + Failures.oneLine(e), e);
        }
    }

    /** The java binary of this very JVM. */
    public static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
