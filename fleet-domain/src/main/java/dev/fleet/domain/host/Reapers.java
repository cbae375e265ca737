package dev.fleet.domain.host;

import java.util.Set;

/**
 * The processes that adopt orphans for a living (the contract, §14: "pid 1 or a subreaper that is no client"):
 * init systems, container inits and service supervisors, told by the base name of their argv[0]. A server
 * whose parent is one of them may have lost its client; a server whose parent is any other live process is
 * that process's, whoever it is, even when its kind is unknown: calling a live server {@code orphaned} would
 * print a line that kills it. The list is short on purpose: a reaper missing from it only keeps an orphan
 * from being called one.
 */
final class Reapers {

    private static final Set<String> NAMES = Set.of("systemd", "init", "tini", "dumb-init", "catatonit",
            "docker-init", "s6-svscan", "runsvdir");

    private Reapers() {
    }

    static boolean is(HostProcess process) {
        if (process.argv().isEmpty()) {
            return false;
        }
        String first = process.argv().get(0);
        return NAMES.contains(first.substring(first.lastIndexOf('/') + 1));
    }
}
