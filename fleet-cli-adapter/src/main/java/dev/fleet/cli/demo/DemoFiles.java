package dev.fleet.cli.demo;

import dev.fleet.domain.Roster;
import dev.fleet.domain.verdict.encoding.CanonicalJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The files a demo fleet serves from: its roster and a scratch repository, made in its own directory. */
final class DemoFiles {

    private DemoFiles() {
    }

    /**
     * The default roster, except that only this demo's servers look like servers: their command
     * lines name its registry. Other fleet servers on this host then neither disturb the story nor
     * are disturbed by it.
     */
    static Path roster(Path file, String namedBy) throws IOException {
        Roster defaults = Roster.defaultRoster();
        Map<String, Object> roster = new LinkedHashMap<>();
        roster.put("binding", Map.of("remote", defaults.binding().remote(), "org", defaults.binding().org(),
                "repo", defaults.binding().repo()));
        roster.put("members", defaults.members().stream().map(member -> Map.of("namespace", member.namespace(),
                "profile", member.profile(), "role", member.role())).toList());
        roster.put("server_process_patterns",
                List.of("fleet\\.jar serve .*" + namedBy + "(\\s|$)"));
        Files.writeString(file, CanonicalJson.encode(roster));
        return file;
    }

    /**
     * A repository for the members to serve, whatever directory the demo runs in: just enough git
     * metadata (HEAD on a branch, the branch's commit id) for each server to record one revision.
     */
    static Path scratchRepository(Path root) throws IOException {
        Path git = Files.createDirectories(root.resolve(".git/refs/heads"));
        Files.writeString(root.resolve(".git/HEAD"), "ref: refs/heads/main\n");
        Files.writeString(git.resolve("main"), "5eed0fd1ee7c0de0000000000000000000000001\n");
        return root;
    }
}
