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

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private CanonicalJson() {
    }

    /** Encodes a tree of maps, lists, strings, integers, booleans and nulls. */
    public static String encode(Object tree) {
        CanonicalWriter writer = CanonicalWriter.forText();
        write(tree, writer);
        return writer.text();
    }

    /** Encodes a value: see the class comment. */
    public static String encode(Json value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Json value, StringBuilder out) {
        if (value instanceof Json.Obj object) {
            out.append('{');
            String comma = "";
            for (Json.Field field : object.fields()) {
                out.append(comma);
                writeString(field.name(), out);
                out.append(':');
                write(field.value(), out);
                comma = ",";
            }
            out.append('}');
        } else if (value instanceof Json.Arr array) {
            out.append('[');
            String comma = "";
            for (Json item : array.items()) {
                out.append(comma);
                write(item, out);
                comma = ",";
            }
            out.append(']');
        } else if (value instanceof Json.Str text) {
            writeString(text.value(), out);
        } else if (value instanceof Json.Num number) {
            out.append(number.value().longValue());
        } else if (value instanceof Json.Bool bool) {
            out.append(bool.value());
        } else {
            out.append("null");
        }
    }

    /**
     * Quote and backslash escaped with a backslash; C0, DEL and C1 as {@code \\u00XX}, since a
     * terminal obeys them even inside a JSON string (ESC, CSI U+009B); every other character as it is.
     */
    private static void writeString(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
                out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
            } else {
                out.append(c);
            }
        }
        out.append('"');
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
