package dev.fleet.mcp.relay;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.fleet.mcp.jsonrpc.JsonRpcLine;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Changes to a line's bytes, made where {@link Span}s say the values lie: every byte outside the
 * changed places stays as the child wrote it (numbers of any size and precision, escapes, key order,
 * whitespace). Changes do not overlap; one that inserts ({@code start == end}) goes before one that
 * cuts from the same place.
 */
final class Splice {

    private record Edit(int start, int end, byte[] text) {
    }

    private final List<Edit> edits = new ArrayList<>();

    boolean isEmpty() {
        return edits.isEmpty();
    }

    /** Puts {@code text} in place of the value {@code span}. */
    void replace(Span span, String text) {
        edits.add(new Edit(span.start(), span.end(), text.getBytes(UTF_8)));
    }

    /** Adds members ({@code "key":value} texts, in order) at the end of the object {@code object}. */
    void addMembers(Span object, List<String> members) {
        if (!members.isEmpty()) {
            String joined = String.join(",", members);
            insert(object.close(), object.members().isEmpty() ? joined : "," + joined);
        }
    }

    /**
     * Leaves out the elements of {@code array} that {@code cut} marks, with the commas that separated
     * them, and appends {@code appended} (element texts, may be empty) after the last element kept.
     */
    void cutAndAppend(int close, List<Span> elements, boolean[] cut, List<byte[]> appended) {
        int lastKept = -1;
        for (int i = 0; i < elements.size(); i++) {
            if (!cut[i]) {
                lastKept = i;
                continue;
            }
            int run = i;
            while (i + 1 < elements.size() && cut[i + 1]) {
                i++;
            }
            if (i + 1 < elements.size()) {
                cut(elements.get(run).start(), elements.get(i + 1).start()); // up to the next element kept
            } else if (lastKept >= 0) {
                cut(elements.get(lastKept).end(), elements.get(i).end()); // from the end of the last kept
            } else {
                cut(elements.get(run).start(), elements.get(i).end()); // every element: nothing to join
            }
        }
        if (!appended.isEmpty()) {
            ByteArrayOutputStream text = new ByteArrayOutputStream();
            for (byte[] element : appended) {
                if (lastKept >= 0 || text.size() > 0) {
                    text.write(',');
                }
                text.writeBytes(element);
            }
            edits.add(new Edit(lastKept >= 0 ? elements.get(lastKept).end() : close, lastKept >= 0
                    ? elements.get(lastKept).end() : close, text.toByteArray()));
        }
    }

    /**
     * The batch line {@code buffer[0, length)} less the elements {@code cut} marks (with the commas between
     * them): {@code buffer} itself, not copied, when none is (its first {@code length} bytes are the line),
     * null when every one is.
     */
    static byte[] without(JsonRpcLine batch, boolean[] cut, byte[] buffer, int length) {
        List<Span> elements = batch.messages().stream()
                .map(message -> new Span(null, message.start(), message.end(), null, null, null)).toList();
        Splice splice = new Splice();
        splice.cutAndAppend(batch.close(), elements, cut, List.of());
        if (splice.isEmpty()) {
            return buffer; // passed as it came: no copy of a batch nothing was cut from
        }
        for (boolean gone : cut) {
            if (!gone) {
                return splice.apply(buffer, 0, length);
            }
        }
        return null;
    }

    /** Puts {@code text} in place of the element {@code span} of an array. */
    void replace(Span span, byte[] text) {
        edits.add(new Edit(span.start(), span.end(), text));
    }

    /** {@code buffer[start, end)} with the changes made. */
    byte[] apply(byte[] buffer, int start, int end) {
        edits.sort(Comparator.comparingInt(Edit::start).thenComparingInt(Edit::end));
        ByteArrayOutputStream out = new ByteArrayOutputStream(end - start + 256);
        int at = start;
        for (Edit edit : edits) {
            out.write(buffer, at, edit.start() - at);
            out.writeBytes(edit.text());
            at = edit.end();
        }
        out.write(buffer, at, end - at);
        return out.toByteArray();
    }

    private void insert(int at, String text) {
        edits.add(new Edit(at, at, text.getBytes(UTF_8)));
    }

    private void cut(int from, int to) {
        edits.add(new Edit(from, to, new byte[0]));
    }
}
