package dev.fleet.domain.verdict.encoding;

import dev.fleet.domain.Timestamps;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Builds the document as a tree: objects are ordered {@link LinkedHashMap}s, arrays unmodifiable
 * lists, numbers {@link Integer} or {@link Long} as written, instants their written text. It shows
 * everything and takes no digest: the one it is given is the one it shows.
 */
public final class TreeSink implements DocumentSink {

    private final Deque<Object> open = new ArrayDeque<>();
    private String pendingName;
    private Object root;

    /** The one value written (the outermost object or array). */
    @SuppressWarnings("unchecked")
    public <T> T root() {
        return (T) root;
    }

    @Override
    public void beginObject() {
        Map<String, Object> object = new LinkedHashMap<>();
        add(object);
        open.push(object);
    }

    @Override
    public void endObject() {
        open.pop();
    }

    @Override
    public void beginArray() {
        List<Object> array = new ArrayList<>();
        add(Collections.unmodifiableList(array));
        open.push(array);
    }

    @Override
    public void endArray() {
        open.pop();
    }

    @Override
    public void name(FieldName name) {
        pendingName = name.text();
    }

    @Override
    public void string(String value) {
        add(value);
    }

    @Override
    public void number(int value) {
        add(value);
    }

    @Override
    public void number(long value) {
        add(value);
    }

    @Override
    public void bool(Boolean value) {
        add(value);
    }

    @Override
    public void instant(Instant value) {
        add(Timestamps.format(value));
    }

    @Override
    public void nullValue() {
        add(null);
    }

    /** A tree gets its own maps each time. */
    @Override
    public void repeatable(Object key, Consumer<DocumentSink> write) {
        write.accept(this);
    }

    @Override
    public void beginUndigested() {
    }

    @Override
    public void endUndigested() {
    }

    @Override
    public void digest(FieldName name, String known) {
        name(name);
        string(known);
    }

    @SuppressWarnings("unchecked")
    private void add(Object value) {
        Object container = open.peek();
        if (container == null) {
            root = value;
        } else if (container instanceof Map<?, ?> map) {
            ((Map<String, Object>) map).put(pendingName, value);
        } else {
            ((List<Object>) container).add(value);
        }
    }
}
