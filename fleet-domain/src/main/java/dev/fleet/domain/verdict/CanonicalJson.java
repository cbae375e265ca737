package dev.fleet.domain.verdict;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The canonical encoding the verdict digest is taken over: compact JSON, object keys in the
 * document's fixed field order, strings escaped minimally (quote, backslash, control characters
 * as {@code \\u00XX}), integers only. Defined once here so every renderer of a verdict, whatever
 * its JSON library, agrees on the digest.
 */
public final class CanonicalJson {

    private CanonicalJson() {
    }

    /** Encodes a tree of maps, lists, strings, integers, booleans and nulls. */
    public static String encode(Object tree) {
        StringBuilder out = new StringBuilder(1024);
        write(tree, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String text) {
            writeString(text, out);
        } else if (value instanceof Boolean || value instanceof Integer || value instanceof Long) {
            out.append(value);
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            Iterator<? extends Map.Entry<?, ?>> entries = map.entrySet().iterator();
            while (entries.hasNext()) {
                Map.Entry<?, ?> entry = entries.next();
                writeString((String) entry.getKey(), out);
                out.append(':');
                write(entry.getValue(), out);
                if (entries.hasNext()) {
                    out.append(',');
                }
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                write(list.get(i), out);
            }
            out.append(']');
        } else {
            throw new IllegalArgumentException("not part of a canonical tree: " + value.getClass().getName());
        }
    }

    private static void writeString(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        out.append('"');
    }
}
