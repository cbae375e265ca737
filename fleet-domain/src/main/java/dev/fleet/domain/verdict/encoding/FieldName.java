package dev.fleet.domain.verdict.encoding;

import java.nio.charset.StandardCharsets;

/**
 * A field name of a document, with its canonical encoding ({@code "name":}) made once: a large
 * verdict writes the same few dozen names many thousands of times.
 */
public final class FieldName {

    private final String text;
    /** {@code "text":}, escaped as {@link CanonicalJson} escapes any string, in UTF-8. */
    final byte[] encoded;

    private FieldName(String text) {
        this.text = text;
        this.encoded = (CanonicalJson.encode(text) + ":").getBytes(StandardCharsets.UTF_8);
    }

    public static FieldName of(String text) {
        return new FieldName(text);
    }

    public String text() {
        return text;
    }
}
