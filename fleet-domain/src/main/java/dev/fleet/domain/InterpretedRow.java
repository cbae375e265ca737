package dev.fleet.domain;

/** What a registry row turned out to be: a {@link Registration} or a {@link MalformedRegistration}. */
public sealed interface InterpretedRow permits Registration, MalformedRegistration {
}
