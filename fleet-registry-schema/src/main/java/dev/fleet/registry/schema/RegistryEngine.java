package dev.fleet.registry.schema;

import java.util.Set;
import org.jooq.DSLContext;
import org.jooq.Field;

/**
 * What the registry's shared SQL ({@link RegistrySelect}, {@link RegistryWrites}) asks of an engine,
 * because there it truly differs: the catalog that names a table's columns, how an INTEGER column is
 * seen to hold a whole number, and whose clock a heartbeat records. Each registry adapter implements it
 * once; locking, busy and retry rules, and SQLite's checks of the file, stay in the adapters, around
 * the shared statements. An implementation only reads (the read side uses it too).
 */
public interface RegistryEngine {

    /**
     * The columns the registry's table (or view) has, lower case as SQLite compares them; none when
     * there is no such table.
     */
    Set<String> columns(DSLContext ctx);

    /**
     * {@code column}, an INTEGER one, as the reader selects it: its digits where the engine stores a
     * whole number in it, NULL where it holds NULL, else {@link RegistryColumn#NO_PROCESS} (a REAL 12.7,
     * the text '015494', a BLOB of digits: none of them names a process, and none may read as unknown).
     */
    Field<String> wholeNumber(RegistryColumn column);

    /**
     * What a registration or a heartbeat writes into {@code last_heartbeat_at}: {@code ours}, the
     * writer's own timestamp, or the database's clock, so that a lease is never judged across two
     * hosts' clocks.
     */
    Field<String> heartbeat(String ours);
}
