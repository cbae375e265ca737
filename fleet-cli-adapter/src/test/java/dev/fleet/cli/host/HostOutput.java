package dev.fleet.cli.host;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.fleet.cli.testing.FleetJar;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** One run of {@code fleet host}, with its JSON report read where it printed one. */
record HostOutput(FleetJar.Run run) {

    int exitCode() {
        return run.exitCode();
    }

    JsonNode json() {
        try {
            return run.stdoutJson();
        } catch (JsonProcessingException e) {
            throw new AssertionError("fleet host printed no JSON: " + this, e);
        }
    }

    /** The reported server whose tree holds {@code pid}, if any. */
    Optional<JsonNode> serverHolding(long pid) {
        for (JsonNode server : json().get("servers")) {
            for (JsonNode member : server.get("pids")) {
                if (member.asLong() == pid) {
                    return Optional.of(server);
                }
            }
        }
        return Optional.empty();
    }

    /** The reported server whose root is {@code pid}; fails, showing the report, when none is. */
    JsonNode server(long pid) {
        for (JsonNode server : json().get("servers")) {
            if (server.get("root_pid").asLong() == pid) {
                return server;
            }
        }
        throw new AssertionError("no server rooted at pid " + pid + " in " + this);
    }

    /** The state of the server rooted at {@code pid}, or "absent". */
    String state(long pid) {
        for (JsonNode server : json().get("servers")) {
            if (server.get("root_pid").asLong() == pid) {
                return server.get("state").asText();
            }
        }
        return "absent";
    }

    /** Every reported server's root pid, in the report's order. */
    List<Long> rootPids() {
        List<Long> pids = new ArrayList<>();
        json().get("servers").forEach(server -> pids.add(server.get("root_pid").asLong()));
        return pids;
    }

    @Override
    public String toString() {
        return "exit " + run.exitCode() + "\nstdout:\n" + run.stdout() + "\nstderr:\n" + run.stderr();
    }
}
