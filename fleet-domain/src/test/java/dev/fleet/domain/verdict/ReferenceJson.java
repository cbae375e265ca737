package dev.fleet.domain.verdict;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The canonical encoding as the contract words it (docs/CONTRACT.md), written as plainly as it can
 * be, independently of the production encoder: the oracle the properties hold that encoder to.
 */
final class ReferenceJson {

    private ReferenceJson() {
    }

    static String encode(Object value) {
        if (value instanceof Map<?, ?> map) {
            StringBuilder out = new StringBuilder("{");
            map.forEach((name, item) -> out.append(out.length() > 1 ? "," : "").append(string((String) name))
                    .append(':').append(encode(item)));
            return out.append('}').toString();
        }
        if (value instanceof List<?> list) {
            return "[" + String.join(",", list.stream().map(ReferenceJson::encode).toList()) + "]";
        }
        return value instanceof String text ? string(text) : String.valueOf(value);
    }

    private static String string(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    /** {@code sha256:} and the hex of SHA-256 over {@code text}'s UTF-8. */
    static String sha256(String text) {
        try {
            return "sha256:" + HexFormat.of().formatHex(
                    MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
