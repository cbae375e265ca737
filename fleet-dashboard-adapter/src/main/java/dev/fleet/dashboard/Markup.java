package dev.fleet.dashboard;

import dev.fleet.domain.Printable;

/**
 * HTML written as the page's script writes its nodes, for the first verdict served inside the page:
 * every value as text (made printable as the CLI's text output does, then HTML-escaped), each value
 * from outside the program (a row, a command line, a path) in a {@code <bdi>} of its own. Values come
 * from hostile registries: nothing from a verdict is ever written as markup.
 */
final class Markup {

    private final StringBuilder html = new StringBuilder();

    /** Opens {@code tag} with {@code className} (or none) and attribute name-value pairs, each value escaped. */
    Markup open(String tag, String className, String... attributes) {
        html.append('<').append(tag);
        if (className != null) {
            html.append(" class=\"").append(className).append('"');
        }
        for (int i = 0; i + 1 < attributes.length; i += 2) {
            html.append(' ').append(attributes[i]).append("=\"").append(escape(printable(attributes[i + 1])))
                    .append('"');
        }
        html.append('>');
        return this;
    }

    Markup close(String tag) {
        html.append("</").append(tag).append('>');
        return this;
    }

    /** An element holding only {@code text}. */
    Markup element(String tag, String className, Object text) {
        return open(tag, className).text(text).close(tag);
    }

    /** The page's own words, or a number: printable and escaped. */
    Markup text(Object text) {
        html.append(escape(printable(String.valueOf(text))));
        return this;
    }

    /** A value from outside, isolated in a {@code <bdi>}; "—" when absent or empty, as the script shows it. */
    Markup outside(Object value) {
        return element("bdi", null, value == null || "".equals(value) ? "—" : value);
    }

    Markup append(Markup inner) {
        html.append(inner.html);
        return this;
    }

    boolean isEmpty() {
        return html.isEmpty();
    }

    @Override
    public String toString() {
        return html.toString();
    }

    /**
     * {@code text} with each character the text output escapes written as {@code \xNN} (or a backslash,
     * u and four hex digits): {@link Printable}, as the page's script does (dashboard.js).
     */
    static String printable(String text) {
        return Printable.of(text);
    }

    /** Text safe in an element and in a quoted attribute. */
    static String escape(String text) {
        StringBuilder escaped = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> escaped.append("&amp;");
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&#39;");
                default -> escaped.append(c);
            }
        }
        return escaped.toString();
    }
}
