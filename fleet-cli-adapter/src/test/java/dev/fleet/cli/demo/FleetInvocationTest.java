package dev.fleet.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command the demo prints to run fleet again works pasted where the user is: the launcher as
 * they named it when that name works from their directory, else an absolute path.
 */
class FleetInvocationTest {

    private static final String JAVA = "/opt/jdk/bin/java";

    private static Path executable(Path file) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "#!/bin/sh\n");
        assertTrue(file.toFile().setExecutable(true));
        return file;
    }

    /** A checkout: its launcher at the root and the jar where the build puts it. */
    private static Path checkout(Path dir) throws Exception {
        executable(dir.resolve("fleet"));
        return Files.createDirectories(dir.resolve("fleet-cli-adapter/target")).resolve("fleet.jar");
    }

    @Test
    void aRelativeLauncherIsKeptAsTypedAndNamesTheDirectoryItWorksFrom(@TempDir Path dir) throws Exception {
        Path jar = checkout(dir.resolve("repo"));
        FleetInvocation here = FleetInvocation.of("./fleet", dir.resolve("repo"), "/usr/bin", jar, JAVA);
        assertEquals("./fleet", here.command());
        assertEquals(dir.resolve("repo"), here.neededDirectory());
        Path docs = Files.createDirectories(dir.resolve("repo/docs"));
        assertEquals("../fleet", FleetInvocation.of("../fleet", docs, "/usr/bin", jar, JAVA).command());
    }

    @Test
    void anAbsoluteLauncherIsItsNameWhenPathFindsItThereElseItsPath(@TempDir Path dir) throws Exception {
        Path jar = checkout(dir.resolve("repo"));
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path linked = Files.createSymbolicLink(bin.resolve("fleet"), dir.resolve("repo/fleet"));
        FleetInvocation onPath = FleetInvocation.of(linked.toString(), dir, "/nowhere:" + bin, jar, JAVA);
        assertEquals("fleet", onPath.command());
        assertNull(onPath.neededDirectory());
        // Another fleet earlier on PATH would answer to the name: the path it is, then.
        Path other = executable(dir.resolve("other/fleet")).getParent();
        assertEquals(linked.toString(), FleetInvocation.of(linked.toString(), dir, other + ":" + bin, jar, JAVA)
                .command());
        assertEquals(linked.toString(), FleetInvocation.of(linked.toString(), dir, null, jar, JAVA).command());
    }

    @Test
    void withoutAUsableNameTheLauncherBesideTheJarByItsAbsolutePath(@TempDir Path dir) throws Exception {
        Path jar = checkout(dir.resolve("repo"));
        String launcher = dir.resolve("repo/fleet").toString();
        // No launcher (java -jar), a bare name a shell would look up on PATH (bash fleet), a name gone.
        for (String invoked : new String[] {null, "", "fleet", "./gone/fleet"}) {
            FleetInvocation again = FleetInvocation.of(invoked, dir, "/usr/bin", jar, JAVA);
            assertEquals(launcher, again.command(), "invoked as " + invoked);
            assertNull(again.neededDirectory());
        }
    }

    @Test
    void aJarWithoutALauncherIsRunByThisJavaAndQuotedForTheShell(@TempDir Path dir) throws Exception {
        Path jar = Files.createDirectories(dir.resolve("my tools")).resolve("fleet.jar");
        assertEquals(JAVA + " -jar '" + jar + "'", FleetInvocation.of(null, dir, "/usr/bin", jar, JAVA).command());
        Path quoted = checkout(dir.resolve("it's here"));
        assertEquals("'" + dir.resolve("it'\\''s here/fleet") + "'", FleetInvocation.of(null, dir, "/usr/bin",
                quoted, JAVA).command());
    }
}
