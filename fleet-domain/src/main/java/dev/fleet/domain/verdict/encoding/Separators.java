package dev.fleet.domain.verdict.encoding;

import java.util.Arrays;

/** Where a {@link CanonicalWriter} puts its commas: between the members of an object and the values of an array. */
final class Separators {

    /** Per open container: whether nothing has been written in it yet. */
    private boolean[] first = new boolean[16];
    private int depth;
    private boolean afterName;

    void open() {
        depth++;
        if (depth == first.length) {
            first = Arrays.copyOf(first, depth * 2);
        }
        first[depth] = true;
    }

    void close() {
        depth--;
    }

    /** Whether a name goes after a comma; it is then the container's next member. */
    boolean commaBeforeName() {
        boolean comma = !first[depth];
        first[depth] = false;
        afterName = true;
        return comma;
    }

    /** Whether a value goes after a comma: in an array unless it is the first; after a name, never. */
    boolean commaBeforeValue() {
        if (afterName) {
            afterName = false;
            return false;
        }
        if (depth == 0) {
            return false;
        }
        boolean comma = !first[depth];
        first[depth] = false;
        return comma;
    }
}
