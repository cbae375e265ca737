package dev.fleet.registry.postgresql;

import dev.fleet.domain.RegistryReason;
import java.sql.SQLException;
import java.util.Objects;

/** What a PostgreSQL failure means to an operator, by SQLSTATE (docs/CONTRACT.md, "Many hosts"). */
final class PostgresErrors {

    /**
     * The driver's own "connection rejected": the server asked for a password and none was given (no
     * {@code PGPASSWORD}, no {@code ~/.pgpass} line). The server answered, so it is the role's
     * credentials that are wanting, never its reachability.
     */
    private static final String NO_PASSWORD_GIVEN = "08004";

    /** A lock another session holds outlasted this session's {@code lock_timeout}. */
    static final String LOCK_NOT_AVAILABLE = "55P03";

    private PostgresErrors() {
    }

    /** The registry reason for a failed read. */
    static RegistryReason reasonOf(SQLException e) {
        String state = sqlState(e);
        if (state.startsWith("28") || state.equals("42501") || state.equals(NO_PASSWORD_GIVEN)) {
            return RegistryReason.ACCESS_DENIED; // bad or missing password, unknown role, no privilege
        }
        if (state.equals("3D000") || state.equals("42P01")) {
            return RegistryReason.MISSING; // no such database, no such table
        }
        if (state.equals(LOCK_NOT_AVAILABLE)) {
            return RegistryReason.LOCKED; // another session's lock outlasted the reader's lock_timeout
        }
        if (state.startsWith("08") || state.startsWith("57P") || state.equals("53300") || state.isEmpty()) {
            return RegistryReason.UNREACHABLE; // refused, timed out, shutting down, too many connections
        }
        return RegistryReason.IO_ERROR;
    }

    /** Deadlock or serialization failure: the transaction may simply be run again. */
    static boolean retryable(SQLException e) {
        String state = sqlState(e);
        return state.equals("40P01") || state.equals("40001") || state.equals(LOCK_NOT_AVAILABLE);
    }

    /** The first SQLSTATE in the chain; empty when none says (a timeout of the socket itself). */
    static String sqlState(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getSQLState() != null) {
                return sql.getSQLState();
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return "";
    }

    /** The driver's message, first line only: never a stack trace, never a password (the URL holds none). */
    static String oneLine(SQLException e) {
        String message = Objects.toString(e.getMessage(), e.getClass().getSimpleName());
        int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end);
    }
}
