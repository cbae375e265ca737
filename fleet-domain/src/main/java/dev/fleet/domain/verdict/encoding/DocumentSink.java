package dev.fleet.domain.verdict.encoding;

import java.time.Instant;
import java.util.function.Consumer;

/**
 * Where a document is written, value by value. A document is described once, through this
 * interface, and each renderer is a sink: {@link TreeSink} builds the tree of ordered maps that
 * structured content is made of, {@link CanonicalWriter} writes the canonical JSON itself (as text,
 * as its digest, or both at once) without building that tree first.
 */
public interface DocumentSink {

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
     * A value, after a name, that {@code write} writes and that may be written again under the same
     * {@code key} (compared by identity): a sink that keeps what it wrote may copy it the second
     * time instead of writing it again. The value must be the same each time.
     */
    void repeatable(Object key, Consumer<DocumentSink> write);

    /**
     * What is written from here to {@link #endUndigested} is shown but left out of the digest. It
     * must not be the first member of its container (its comma goes with it; the digest keeps the
     * separator of the member before).
     */
    void beginUndigested();

    void endUndigested();

    /**
     * The member {@code name}, whose value is the digest of the document written so far: its
     * outermost object up to here, without the undigested ranges and closed with {@code '}'}. Only
     * in the outermost object, after its last digested member: what follows is not digested. A sink
     * that takes the digest from what it has written writes that one; any other writes {@code known}.
     */
    void digest(FieldName name, String known);
}
