package dev.fleet.registry.schema;

/**
 * The registry could not be migrated or written, on either engine. The message names the registry
 * and the cause in one line, fit for an operator; the cause keeps the driver's detail.
 */
public class RegistryStorageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RegistryStorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
