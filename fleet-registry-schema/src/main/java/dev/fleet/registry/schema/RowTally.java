package dev.fleet.registry.schema;

/**
 * Counts what one registry read materialises, on either engine, and refuses more than a registry ever holds
 * (docs/CONTRACT.md, "Read bounds"): the table may be another tool's view of endless rows or huge values.
 */
public final class RowTally {

    /** The most rows one read materialises. */
    public static final int MAX_ROWS = 200_000;
    /** The most characters of text one read materialises, over all rows. */
    public static final long MAX_TEXT_CHARS = 64L << 20;
    /** The most characters of one value. */
    public static final int MAX_VALUE_CHARS = 1 << 20;

    private int rows;
    private long chars;

    /** Counts one row more. */
    public void row() throws Exceeded {
        if (++rows > MAX_ROWS) {
            throw new Exceeded("more than " + MAX_ROWS + " rows");
        }
    }

    /** Counts {@code value} (null counts nothing) and returns it. */
    public String text(String value) throws Exceeded {
        if (value == null) {
            return null;
        }
        if (value.length() > MAX_VALUE_CHARS) {
            throw new Exceeded("a value longer than 1 MiB");
        }
        if ((chars += value.length()) > MAX_TEXT_CHARS) {
            throw new Exceeded("more than " + (MAX_TEXT_CHARS >> 20) + " Mi characters of text");
        }
        return value;
    }

    /** More than a registry holds; the message says which bound, as an operator is told it. */
    public static final class Exceeded extends Exception {
        private static final long serialVersionUID = 1L;

        Exceeded(String detail) {
            super(detail);
        }
    }
}
