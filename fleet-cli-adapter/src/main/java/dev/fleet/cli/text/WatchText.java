package dev.fleet.cli.text;

import dev.fleet.domain.verdict.Verdict;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Set;

/**
 * {@code fleet watch --format text}: for each change, one line (the local time of the observation,
 * {@code gate satisfied} or the first blocked code, running/expected), then one indented line for
 * each anomaly that appeared ({@code +}) or went away ({@code -}) since the previous one. It keeps
 * the anomalies of the last verdict it rendered, so one instance serves one watch.
 */
public final class WatchText {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

    private final ZoneId zone;
    private Set<String> anomalies = Set.of();

    public WatchText(ZoneId zone) {
        this.zone = zone;
    }

    /** The lines for {@code verdict}, each ending with a line separator. */
    public String render(Verdict verdict) {
        StringBuilder text = new StringBuilder();
        text.append(TIME.format(verdict.observation().observedAt().atZone(zone))).append("  ")
                .append(verdict.mutationGateSatisfied() ? "gate satisfied" : verdict.blockedReason().code())
                .append("  ").append(verdict.runningMemberCount()).append('/').append(verdict.expectedMemberCount())
                .append(" running").append(System.lineSeparator());
        Set<String> now = WatchAnomalies.of(verdict);
        for (String change : WatchAnomalies.diff(anomalies, now)) {
            text.append("  ").append(change).append(System.lineSeparator());
        }
        anomalies = now;
        return text.toString();
    }
}
