package dev.fleet.domain.verdict.encoding;

/**
 * The canonical encoding the verdict digest is taken over: compact JSON, object keys in the
 * document's fixed field order, strings escaped minimally (quote, backslash, the control
 * characters U+0000-U+001F and U+007F-U+009F as {@code \\u00XX}), integers only. Defined once here
 * so every renderer of a verdict, whatever its JSON library, agrees on the digest. An unpaired
 * surrogate is kept as it is: the text shows it, and its UTF-8 (as {@code String.getBytes} makes it)
 * has {@code '?'} in its place.
 */
public final class CanonicalJson {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private CanonicalJson() {
    }

    /**
     * Encodes a {@link Json} value, or a plain tree of ordered maps with string keys, lists, strings,
     * integers, booleans and nulls ({@link Json#fromPlain}). One method for both, so a caller holding
     * either never picks the other by its static type.
     */
    public static String encode(Object tree) {
        StringBuilder out = new StringBuilder();
        write(Json.fromPlain(tree), out);
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
}
