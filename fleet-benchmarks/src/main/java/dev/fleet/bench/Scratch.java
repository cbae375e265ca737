package dev.fleet.bench;

import io.modelcontextprotocol.client.transport.ServerParameters;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/** A registry, a roster scoped to it and a repository with a revision, in a fresh folder. */
final class Scratch {
    final Path dir;
    final Path registry;
    final Path roster;
    final Path repository;

    private Scratch(Path dir) {
        this.dir = dir;
        this.registry = dir.resolve("control_plane.sqlite3");
        this.roster = dir.resolve("roster.json");
        this.repository = dir.resolve("repository");
    }

    static Scratch in(Path parent) throws IOException {
        Files.createDirectories(parent);
        Scratch scratch = new Scratch(Files.createTempDirectory(parent, "fleet-perf-"));
        Files.createDirectories(scratch.repository.resolve(".git/refs/heads"));
        Files.writeString(scratch.repository.resolve(".git/HEAD"), "ref: refs/heads/main\n");
        Files.writeString(scratch.repository.resolve(".git/refs/heads/main"),
                "0123456789abcdef0123456789abcdef01234567\n");
        String pattern = ("fleet\\.jar serve .*--registry " + Pattern.quote(scratch.registry.toString())
                + "(\\s|$)").replace("\\", "\\\\");
        StringBuilder members = new StringBuilder();
        for (String profile : FleetProcesses.PROFILES) {
            String role = profile.substring("prgs-".length());
            members.append(members.length() == 0 ? "" : ", ").append("{\"namespace\": \"gitea-").append(role)
                    .append("\", \"profile\": \"").append(profile).append("\", \"role\": \"").append(role)
                    .append("\"}");
        }
        Files.writeString(scratch.roster, "{\"binding\": {\"remote\": \"prgs\", \"org\": "
                + "\"Scaled-Tech-Consulting\", \"repo\": \"Gitea-Tools\"}, \"members\": [" + members
                + "], \"server_process_patterns\": [\"" + pattern + "\"]}", StandardCharsets.UTF_8);
        return scratch;
    }

    List<String> serveArguments(String profile) {
        return List.of("serve", "--profile", profile, "--registry", registry.toString(), "--roster",
                roster.toString(), "--repository-root", repository.toString(), "--cohort-from-parent");
    }

    ServerParameters serve(Path launcher, String profile) {
        return ServerParameters.builder(launcher.toString()).args(serveArguments(profile))
                .env(Map.of("FLEET_JAVA_OPTS", System.getenv().getOrDefault("FLEET_JAVA_OPTS", ""))).build();
    }

    /** Migrates the scratch registry through the launcher, as any registry in use already is. */
    void migrate(Path launcher) throws IOException, InterruptedException {
        new ProcessBuilder(launcher.toString(), "registry", "migrate", "--registry", registry.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.INHERIT)
                .start().waitFor();
    }

    ProcessBuilder serveCommand(Path launcher, String profile) {
        List<String> command = new ArrayList<>();
        command.add(launcher.toString());
        command.addAll(serveArguments(profile));
        return new ProcessBuilder(command);
    }

    Map<String, Long> awaitRunningRows(int count, Duration wait) throws Exception {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            Map<String, Long> pids = runningPids();
            if (pids.size() >= count) {
                return pids;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("only " + pids + " registered within " + wait);
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }

    Map<String, Long> runningPids() {
        Map<String, Long> pids = new LinkedHashMap<>();
        if (!Files.exists(registry)) {
            return pids;
        }
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:file:" + registry + "?mode=ro");
                PreparedStatement select = connection.prepareStatement(
                        "SELECT profile, pid FROM mcp_server_runtimes WHERE status = 'running' ORDER BY profile");
                ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                pids.put(rows.getString(1), rows.getLong(2));
            }
        } catch (SQLException e) {
            // Not migrated yet, or busy: try again.
        }
        return pids;
    }

    void delete() throws IOException {
        try (var files = Files.walk(dir)) {
            files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(file -> file.toFile().delete());
        }
    }
}
