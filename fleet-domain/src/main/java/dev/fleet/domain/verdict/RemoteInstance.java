package dev.fleet.domain.verdict;

/**
 * A live registration of another host (docs/CONTRACT.md, "Many hosts"): its process cannot be observed from
 * here, so its lease alone speaks for it. Shown as an Instance plus the {@code host_id} it recorded.
 */
public record RemoteInstance(Instance instance, String hostId) {
}
