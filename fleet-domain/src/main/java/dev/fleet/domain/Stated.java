package dev.fleet.domain;

import java.util.Objects;

/**
 * A coded column ({@code transport}, {@code client_provenance}, {@code cohort_source}) as a row
 * stated it: the contract's constant when the text is one of its codes, and the text itself, as
 * stored. Other tools write these rows, and a value the contract does not know (or NULL) does not
 * make a row malformed: the verdict shows it as written, so the text is kept beside the constant.
 *
 * @param text the column's text as stored, null for NULL
 * @param known the constant whose code {@code text} is, null when it is none of them
 */
public record Stated<E extends Enum<E> & Code>(String text, E known) {

    private static final Stated<?> NONE = new Stated<>(null, null);

    public Stated {
        if (known != null && !known.code().equals(text)) {
            throw new IllegalArgumentException("stated " + known + " must have its code as text, got " + text);
        }
    }

    /** What a server of this program states: exactly {@code constant}. */
    public static <E extends Enum<E> & Code> Stated<E> of(E constant) {
        return new Stated<>(constant.code(), Objects.requireNonNull(constant, "constant"));
    }

    /** The text as read from a row, with the constant of {@code type} it names, if any. */
    public static <E extends Enum<E> & Code> Stated<E> read(Class<E> type, String text) {
        return text == null ? none() : new Stated<>(text, Code.parse(type, text).orElse(null));
    }

    /** NULL in the row. */
    @SuppressWarnings("unchecked")
    public static <E extends Enum<E> & Code> Stated<E> none() {
        return (Stated<E>) NONE;
    }
}
