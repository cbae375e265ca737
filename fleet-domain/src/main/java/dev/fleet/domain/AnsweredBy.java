package dev.fleet.domain;

/** The fleet server that answered an assessment; absent when the CLI answers. */
public record AnsweredBy(long pid, String namespace, String profile) {
}
