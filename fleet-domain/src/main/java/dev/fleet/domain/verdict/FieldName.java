package dev.fleet.domain.verdict;

/**
 * A field name of the document, with its canonical encoding ({@code "name":}) made once: a large
 * verdict writes the same few dozen names hundreds of thousands of times.
 */
final class FieldName {

    final String text;
    /** {@code "text":}, escaped as {@link CanonicalJson} escapes any string. */
    final char[] encoded;

    private FieldName(String text) {
        this.text = text;
        this.encoded = (CanonicalJson.encode(text) + ":").toCharArray();
    }

    static FieldName of(String text) {
        return new FieldName(text);
    }
}
