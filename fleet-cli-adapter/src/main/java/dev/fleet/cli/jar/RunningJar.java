package dev.fleet.cli.jar;

import dev.fleet.domain.Failures;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The jar this CLI runs from, the java running it, and the settings of the JVMs fleet starts: what
 * the verbs that start fleet again name. The settings are {@code jvm.options}'s, beside this class,
 * which the {@code ./fleet} launcher reads too: one list for both.
 */
public final class RunningJar {

    private static final List<String[]> SETTINGS = read("jvm.options");
    /** For every JVM that serves: what the JVM itself prints goes to stderr, off stdout's protocol bytes. */
    public static final List<String> SERVING_JVM_OPTIONS = group("stderr");
    /** For the demo's members, besides {@link #SERVING_JVM_OPTIONS}. */
    public static final List<String> DEMO_JVM_OPTIONS = group("demo");
    /**
     * What a JVM must find in its environment, as no option can say it (the suspend/resume signal
     * moved off SIGUSR2, as the launcher does): for a JVM this one starts, unless already set.
     */
    public static final Map<String, String> JVM_ENVIRONMENT = environment();

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

    private static List<String> group(String name) {
        return SETTINGS.stream().filter(line -> line[0].equals(name)).map(line -> line[1]).toList();
    }

    private static Map<String, String> environment() {
        Map<String, String> environment = new LinkedHashMap<>();
        for (String setting : group("environment")) {
            int equals = setting.indexOf('=');
            environment.put(setting.substring(0, equals), setting.substring(equals + 1));
        }
        return Map.copyOf(environment);
    }

    /** Each line of the resource as its group and value; blank lines and comments are none. */
    private static List<String[]> read(String resource) {
        List<String[]> settings = new ArrayList<>();
        try (InputStream in = RunningJar.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the jar holds no " + resource);
            }
            BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                String setting = line.strip();
                if (!setting.isEmpty() && !setting.startsWith("#")) {
                    settings.add(setting.split("\\s+", 2));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return List.copyOf(settings);
    }
}
