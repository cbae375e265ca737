package dev.fleet.domain.port.out;

import java.time.Instant;

/** The time an observation is made. A port so the use case stays testable; the classifier never reads it. */
@FunctionalInterface
public interface Clock {

    Instant now();
}
