package dev.fleet.domain.verdict;

import java.nio.charset.StandardCharsets;

/**
 * A field name of the document, with its canonical encoding ({@code "name":}) made once: a large
 * verdict writes the same few dozen names hundreds of thousands of times.
 */
final class FieldName {

    final String text;
    /** {@code "text":}, escaped as {@link CanonicalJson} escapes any string, in UTF-8. */
    final byte[] encoded;

    private FieldName(String text) {
        this.text = text;
        this.encoded = (CanonicalJson.encode(text) + ":").getBytes(StandardCharsets.UTF_8);
    }

    static FieldName of(String text) {
        return new FieldName(text);
    }
}
