package dev.fleet.cli.text;

import dev.fleet.domain.Printable;
import dev.fleet.domain.Timestamps;
import dev.fleet.domain.host.HostClient;
import dev.fleet.domain.host.HostReport;
import dev.fleet.domain.host.HostServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * {@code fleet host}'s report for people (the contract, "Every MCP server on this host"): a count
 * first, then a table per client (its kind, pid, start and project over one row per server: name,
 * state, pids, age, memory), the servers no live client holds under "no client", and the strays last,
 * each with the line that stops it. Everything shown came from other processes and files, so every
 * cell and line is {@link Printable}.
 */
public final class HostText {

    /** The widest a client's command is shown in its heading when it has no kind; the JSON has it whole. */
    private static final int COMMAND_WIDTH = 60;
    private static final String NL = System.lineSeparator();

    private HostText() {
    }

    /** {@code report} as text, ages counted up to {@code now}. */
    public static String of(HostReport report, Instant now) {
        StringBuilder text = new StringBuilder();
        text.append("host: ").append(VerdictText.count(report.clients().size(), "client", "clients")).append(", ")
                .append(VerdictText.count(report.servers().size(), "server process", "server processes"))
                .append(", ").append(VerdictText.count(report.strays(), "stray", "strays")).append(NL);
        Map<Long, List<HostServer>> byClient = byClient(report);
        for (HostClient client : report.clients()) {
            List<HostServer> servers = byClient.remove(client.pid());
            if (servers != null) {
                text.append(NL).append(heading(client)).append(NL).append(table(servers, now));
            }
        }
        List<HostServer> clientless = byClient.values().stream().flatMap(List::stream).toList();
        if (!clientless.isEmpty()) {
            text.append(NL).append("no client (its client is gone or unknown)").append(NL)
                    .append(table(clientless, now));
        }
        List<HostServer> strays = report.servers().stream().filter(server -> server.state().stray()).toList();
        if (!strays.isEmpty()) {
            text.append(NL).append("strays (each line stops one, only if its pids are still the processes seen):")
                    .append(NL);
            for (HostServer stray : strays) {
                text.append("  ").append(Printable.of(strayLine(stray))).append(NL)
                        .append("    ").append(Printable.of(stray.stop())).append(NL);
            }
        }
        return text.toString();
    }

    /** The servers in report order, grouped by client pid (an orphan's null groups under no client). */
    private static Map<Long, List<HostServer>> byClient(HostReport report) {
        Map<Long, List<HostServer>> groups = new LinkedHashMap<>();
        for (HostServer server : report.servers()) {
            groups.computeIfAbsent(server.clientPid(), pid -> new ArrayList<>()).add(server);
        }
        return groups;
    }

    private static String heading(HostClient client) {
        String who = client.kind() != null ? client.kind() : cut(Objects.toString(client.command(), "?"));
        return Printable.of(who) + "  pid " + client.pid() + "  started " + Objects.toString(client.startedAt(), "-")
                + "  project " + Objects.toString(Printable.of(client.project()), "-");
    }

    private static String table(List<HostServer> servers, Instant now) {
        Table table = new Table("  SERVER", "STATE", "PIDS", "AGE", "MEMORY", "CONFIG");
        for (HostServer server : servers) {
            table.row("  " + Objects.toString(server.name(), "-"), server.state().label(), pids(server.pids()),
                    age(server.startedAt(), now), memory(server.memoryBytes()), server.configFile());
        }
        return table.render();
    }

    private static String strayLine(HostServer stray) {
        String client = stray.clientPid() == null ? "no client"
                : "client " + Objects.toString(stray.clientKind(), "pid") + " " + stray.clientPid();
        return stray.state().label() + "  " + Objects.toString(stray.name(), "(no entry)") + "  pids "
                + pids(stray.pids()) + "  (" + client + ")";
    }

    private static String pids(List<Long> pids) {
        return pids.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    /** How long ago {@code startedAt} was, in its two largest units ({@code 3h05m}); "-" when unknown. */
    static String age(String startedAt, Instant now) {
        Instant start = startedAt == null ? null : Timestamps.parse(startedAt).orElse(null);
        if (start == null) {
            return "-";
        }
        long seconds = Math.max(0, Duration.between(start, now).toSeconds());
        if (seconds < 60) {
            return seconds + "s";
        }
        if (seconds < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", seconds / 60, seconds % 60);
        }
        if (seconds < 86400) {
            return String.format(Locale.ROOT, "%dh%02dm", seconds / 3600, seconds % 3600 / 60);
        }
        return String.format(Locale.ROOT, "%dd%02dh", seconds / 86400, seconds % 86400 / 3600);
    }

    /** Memory in MiB with one decimal; "-" when the OS would not say. */
    static String memory(long bytes) {
        return bytes <= 0 ? "-" : String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }

    private static String cut(String text) {
        return text.length() > COMMAND_WIDTH ? text.substring(0, COMMAND_WIDTH - 1) + "…" : text;
    }
}
