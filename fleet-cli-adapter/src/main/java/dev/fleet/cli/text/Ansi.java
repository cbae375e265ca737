package dev.fleet.cli.text;

/** Colour for people at a terminal, plain text for pipes and files. */
public record Ansi(boolean enabled) {

    /** Colour only when stdout is a terminal and NO_COLOR is not set. */
    public static Ansi forStdout() {
        return new Ansi(System.console() != null && System.getenv("NO_COLOR") == null);
    }

    String red(String text) {
        return wrap("31", text);
    }

    String green(String text) {
        return wrap("32", text);
    }

    String bold(String text) {
        return wrap("1", text);
    }

    private String wrap(String code, String text) {
        return enabled ? "\u001b[" + code + "m" + text + "\u001b[0m" : text;
    }
}
