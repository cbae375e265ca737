package dev.fleet.domain.verdict;

import java.time.Instant;

/**
 * Where a document is written, value by value. {@link VerdictDocument} describes the verdict once,
 * through this interface, and each renderer is a sink: {@link TreeSink} builds the tree of ordered
 * maps that structured content is made of, {@link CanonicalWriter} writes the canonical JSON itself
 * (as text, or straight into the digest) without building that tree first.
 */
interface DocumentSink {

    void beginObject();

    void endObject();

    void beginArray();

    void endArray();

    /** The name of the next value in the current object. */
    void name(FieldName name);

    /** A string, or null. */
    void string(String value);

    void number(int value);

    void number(long value);

    /** A boolean, or null. */
    void bool(Boolean value);

    /** An instant in the registry's written form ({@link dev.fleet.domain.Timestamps#format}), or null. */
    void instant(Instant value);

    void nullValue();

    /**
     * What is written from here to {@link #endUndigested} is shown but left out of {@code
     * verdict_digest}: for a sink that writes the shown document and takes the digest at once.
     */
    default void beginUndigested() {
    }

    default void endUndigested() {
    }
}
