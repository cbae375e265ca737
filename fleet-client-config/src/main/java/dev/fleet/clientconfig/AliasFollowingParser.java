package dev.fleet.clientconfig;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.ObjectCodec;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.CollectionEndEvent;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.NodeEvent;

/**
 * Reads YAML as Goose does (serde_yaml): an alias ({@code *name}) stands for the value its anchor ({@code &name})
 * last marked before it, and a merge key ({@code <<}) is a key like any other. Jackson's own parser reads an alias
 * as its anchor's name, and its anchor-replaying parser also applies merge keys, which Goose does not: either would
 * make fleet expect another command than the one Goose starts.
 *
 * <p>Each anchored value's events are kept as they were read (aliases in it already followed) and read again at
 * each alias to it. Bounded: at most {@value #MAX_REPLAYED} events read again in one document (a few aliases to
 * aliased lists would otherwise grow a file of kilobytes into gigabytes), at most {@value #MAX_KEPT} kept for
 * anchors, each counted once for every anchored value it lies in (forty anchored maps around one long list kept
 * it forty times: gigabytes from a file of megabytes, the host audit's find), and at most {@value #MAX_OPEN_ANCHORS}
 * anchored values open inside one another. An alias to no anchor before it, itself included, makes the document
 * unreadable, as it does for serde_yaml.
 */
final class AliasFollowingParser extends YAMLParser {

    static final int MAX_REPLAYED = 100_000;
    static final int MAX_OPEN_ANCHORS = 64;
    static final int MAX_KEPT = 250_000;

    /** An anchored collection being read: its events so far, and how deep in it the reading is. */
    private static final class Anchored {
        final String anchor;
        final List<Event> events = new ArrayList<>();
        int depth;

        Anchored(String anchor) {
            this.anchor = anchor;
        }
    }

    private final Map<String, List<Event>> values = new HashMap<>();
    private final Deque<Anchored> open = new ArrayDeque<>();
    private final Deque<Event> again = new ArrayDeque<>();
    private int replayed;
    private int kept;

    AliasFollowingParser(IOContext context, int parserFeatures, int yamlFeatures, LoaderOptions options,
            ObjectCodec codec, Reader reader) {
        super(context, parserFeatures, yamlFeatures, options, codec, reader);
    }

    @Override
    protected Event getEvent() throws IOException {
        if (!again.isEmpty()) {
            return keep(again.removeFirst());
        }
        Event event = super.getEvent();
        if (event instanceof AliasEvent alias) {
            List<Event> value = values.get(alias.getAnchor());
            if (value == null) {
                throw new JsonParseException(this, "an alias to no anchor before it");
            }
            replayed += value.size();
            if (replayed > MAX_REPLAYED) {
                throw new StreamConstraintsException("more than " + MAX_REPLAYED + " YAML events read again for aliases");
            }
            again.addAll(value);
            return keep(again.removeFirst());
        }
        if (event instanceof NodeEvent node && node.getAnchor() != null) {
            anchor(node);
        }
        return keep(event);
    }

    /** Starts keeping the value {@code node} anchors: a scalar's one event, a collection's until its end. */
    private void anchor(NodeEvent node) throws StreamConstraintsException {
        if (node instanceof CollectionStartEvent) {
            if (open.size() == MAX_OPEN_ANCHORS) {
                throw new StreamConstraintsException("YAML anchors nested more than " + MAX_OPEN_ANCHORS + " deep");
            }
            open.push(new Anchored(node.getAnchor()));
        } else {
            values.put(node.getAnchor(), List.of(node));
        }
    }

    /** Adds {@code event} to the anchored collection being read, and ends it at its end. */
    private Event keep(Event event) throws StreamConstraintsException {
        Anchored innermost = open.peek();
        if (innermost == null) {
            return event;
        }
        count(1);
        innermost.events.add(event);
        if (event instanceof CollectionStartEvent) {
            innermost.depth++;
        } else if (event instanceof CollectionEndEvent && --innermost.depth == 0) {
            open.pop();
            values.put(innermost.anchor, List.copyOf(innermost.events));
            if (!open.isEmpty()) {
                count(innermost.events.size());
                open.peek().events.addAll(innermost.events);
            }
        }
        return event;
    }

    private void count(int events) throws StreamConstraintsException {
        kept += events;
        if (kept > MAX_KEPT) {
            throw new StreamConstraintsException("more than " + MAX_KEPT + " YAML events kept for anchors");
        }
    }
}
