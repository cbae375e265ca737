package dev.fleet.cli;

/**
 * Text that came from elsewhere (command lines, rows other tools wrote), made safe for a terminal:
 * control characters are shown as {@code \xNN} instead of being obeyed, so a process cannot paint
 * "GATE SATISFIED" over the real verdict. JSON output is left as it is; JSON escapes them itself.
 */
final class Printable {

    private Printable() {
    }

    static String of(Object value) {
        if (value == null) {
            return null;
        }
        String text = value.toString();
        StringBuilder safe = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean control = c < 0x20 || (c >= 0x7f && c <= 0x9f);
            if (control && safe == null) {
                safe = new StringBuilder(text.length() + 8).append(text, 0, i);
            }
            if (safe != null) {
                if (control) {
                    safe.append(String.format("\\x%02x", (int) c));
                } else {
                    safe.append(c);
                }
            }
        }
        return safe == null ? text : safe.toString();
    }
}
