package dev.fleet.registry.sqlite;

/**
 * The registry file could not be migrated or written. The message names the file and the cause in
 * one line, fit for an operator; the cause keeps the driver's detail.
 */
public class RegistryStorageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RegistryStorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
