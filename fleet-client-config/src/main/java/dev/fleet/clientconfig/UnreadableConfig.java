package dev.fleet.clientconfig;

/**
 * A configuration file that cannot be read or parsed; its message is one short phrase (the warning
 * line's reason), never a parser's message or a file's content.
 */
final class UnreadableConfig extends Exception {

    private static final long serialVersionUID = 1L;

    UnreadableConfig(String reason) {
        super(reason, null, false, false);
    }
}
