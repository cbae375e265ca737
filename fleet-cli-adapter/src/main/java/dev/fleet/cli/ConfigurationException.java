package dev.fleet.cli;

/** Bad input from the operator (a roster file, a path, an option value): one line on stderr, exit 2. */
final class ConfigurationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    ConfigurationException(String message) {
        super(message);
    }
}
