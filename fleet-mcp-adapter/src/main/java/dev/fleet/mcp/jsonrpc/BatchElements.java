package dev.fleet.mcp.jsonrpc;

import java.util.ArrayList;
import java.util.List;

/**
 * Where each element of a batch line lies, found by its brackets, braces, strings and top-level commas
 * alone, not by a parser: a line a parser stops in (a key given twice, nesting too deep, a fault) still
 * shows where its elements are, so each can be read on its own and answered with its own id.
 */
final class BatchElements {

    private BatchElements() {
    }

    /**
     * The {@code [start, end)} of each element of the array {@code buffer[0, length)} begins with (after
     * blanks), the first {@code most} of them; none when it begins with no array. An element left open at
     * the line's end runs to it; a blank one (after a trailing comma, in {@code []}) is none.
     */
    static List<int[]> of(byte[] buffer, int length, int most) {
        List<int[]> elements = new ArrayList<>();
        int at = 0;
        while (at < length && isBlank(buffer[at])) {
            at++;
        }
        if (at == length || buffer[at] != '[') {
            return elements;
        }
        int depth = 0;
        boolean inString = false;
        boolean content = false;
        int start = at + 1;
        for (int i = at + 1; i < length; i++) {
            byte b = buffer[i];
            if (depth == 0 && !inString && (b == ',' || b == ']')) {
                if (content) {
                    elements.add(new int[] {start, i});
                }
                if (b == ']' || elements.size() == most) {
                    return elements;
                }
                start = i + 1;
                content = false;
                continue;
            }
            content |= !isBlank(b);
            if (inString) {
                if (b == '\\') {
                    i++; // the escaped byte is no quote
                } else if (b == '"') {
                    inString = false;
                }
            } else if (b == '"') {
                inString = true;
            } else if (b == '[' || b == '{') {
                depth++;
            } else if ((b == ']' || b == '}') && depth > 0) {
                depth--;
            }
        }
        if (content && elements.size() < most) {
            elements.add(new int[] {start, length});
        }
        return elements;
    }

    private static boolean isBlank(byte b) {
        return b == ' ' || b == '\t' || b == '\r' || b == '\n';
    }
}
