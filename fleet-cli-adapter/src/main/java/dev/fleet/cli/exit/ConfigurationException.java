package dev.fleet.cli.exit;

/** Bad input from the operator (a roster file, a path, an option value): one line on stderr, exit 2. */
public final class ConfigurationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ConfigurationException(String message) {
        super(message);
    }
}
