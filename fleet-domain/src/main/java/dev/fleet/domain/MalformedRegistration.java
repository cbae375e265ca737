package dev.fleet.domain;

/** A row that cannot be interpreted; {@code runtimeId} is whatever the row held, possibly null or blank. */
public record MalformedRegistration(String runtimeId, MalformedReason reason) implements InterpretedRow {
}
