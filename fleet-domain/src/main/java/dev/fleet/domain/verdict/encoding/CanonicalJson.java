package dev.fleet.domain.verdict.encoding;

import java.util.List;
import java.util.Map;

/**
 * The canonical encoding the verdict digest is taken over: compact JSON, object keys in the
 * document's fixed field order, strings escaped minimally (quote, backslash, the control
 * characters U+0000-U+001F and U+007F-U+009F as {@code \\u00XX}), integers only. Defined once here
 * so every renderer of a verdict, whatever its JSON library, agrees on the digest. {@link CanonicalWriter}
 * writes it; this class walks a tree into it.
 */
public final class CanonicalJson {

    private CanonicalJson() {
    }

    /** Encodes a tree of maps, lists, strings, integers, booleans and nulls. */
    public static String encode(Object tree) {
        CanonicalWriter writer = CanonicalWriter.forText();
        write(tree, writer);
        return writer.text();
    }

    private static void write(Object value, CanonicalWriter out) {
        if (value == null) {
            out.nullValue();
        } else if (value instanceof String text) {
            out.string(text);
        } else if (value instanceof Boolean bool) {
            out.bool(bool);
        } else if (value instanceof Integer number) {
            out.number(number.intValue());
        } else if (value instanceof Long number) {
            out.number(number.longValue());
        } else if (value instanceof Map<?, ?> map) {
            out.beginObject();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                out.name((String) entry.getKey());
                write(entry.getValue(), out);
            }
            out.endObject();
        } else if (value instanceof List<?> list) {
            out.beginArray();
            for (Object item : list) {
                write(item, out);
            }
            out.endArray();
        } else {
            throw new IllegalArgumentException("not part of a canonical tree: " + value.getClass().getName());
        }
    }
}
