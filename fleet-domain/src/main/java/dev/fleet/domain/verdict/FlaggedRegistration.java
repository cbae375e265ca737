package dev.fleet.domain.verdict;

import dev.fleet.domain.ReasonCode;

/** A registration set aside from the fleet (unexpected, stale or unverified), with the reason why. */
public record FlaggedRegistration(Instance instance, ReasonCode reason) {
}
