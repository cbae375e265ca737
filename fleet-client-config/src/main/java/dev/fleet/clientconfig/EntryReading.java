package dev.fleet.clientconfig;

import java.util.List;

/** What one server block of a configuration is, once read. */
sealed interface EntryReading {

    /** A stdio server: the command as written and its arguments, nothing else of the block. */
    record Stdio(String command, List<String> args) implements EntryReading {
        public Stdio {
            args = List.copyOf(args);
        }
    }

    /** Not a server the client starts: a remote (URL) server, a built-in one, one switched off. */
    record NotStdio() implements EntryReading {
    }

    /** A block the client could not start either (no command, arguments that are no list) or over the bounds. */
    record Malformed() implements EntryReading {
    }
}
