package dev.fleet.registry.schema;

/** Facts about the registry schema that other modules may quote. */
public final class RegistrySchema {

    /**
     * The control-plane schema version this project's migration establishes (docs/CONTRACT.md). Also written
     * to {@code PRAGMA user_version} on SQLite, which the control-plane schema as a whole owns: it is
     * raised to this value, never lowered.
     */
    public static final int SCHEMA_VERSION = 7;

    /** The Liquibase changelog on the classpath; the build generates the jOOQ classes from it too. */
    public static final String CHANGELOG = "dev/fleet/registry/schema/changelog.xml";

    private RegistrySchema() {
    }
}
