package dev.fleet.domain.host;

import dev.fleet.domain.Printable;

/**
 * Outside text (an argv, a server's name from a configuration) made fit for one line of a shell
 * comment or a warning: every control character (C0, DEL, C1), every Unicode line or paragraph
 * separator and every bidirectional control (what {@link Printable} shows escaped) becomes {@code ?}, so nothing can end the
 * comment, move a terminal's cursor or reorder what a reader sees, and the text is cut to a bounded length.
 */
final class Sanitized {

    /** Characters kept of a longer text. */
    static final int MAX_CHARS = 200;

    private Sanitized() {
    }

    static String oneLine(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_CHARS + 3));
        for (int i = 0; i < text.length() && i < MAX_CHARS; i++) {
            char c = text.charAt(i);
            boolean control = Printable.isControl(c);
            // A lone surrogate cut at the limit, or anywhere, shows as '?' too: the comment stays valid text.
            out.append(control || Character.isSurrogate(c) && !pairedAt(text, i) ? '?' : c);
        }
        if (text.length() > MAX_CHARS) {
            out.append("...");
        }
        return out.toString();
    }

    private static boolean pairedAt(String text, int i) {
        char c = text.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < text.length() && i + 1 < MAX_CHARS && Character.isLowSurrogate(text.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(text.charAt(i - 1));
    }
}
