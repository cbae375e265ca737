package dev.fleet.cli.text;

import dev.fleet.domain.Printable;

/**
 * The one warning line of an HTTP surface bound beyond loopback ({@code fleet serve --transport http}, {@code fleet
 * dashboard}): reachable from other hosts, unauthenticated, and under any host name, since its {@code Host} is not
 * checked there: a web page whose DNS name resolves to this host may read what a GET answers (DNS rebinding).
 */
public final class BeyondLoopback {

    private BeyondLoopback() {
    }

    /**
     * @param host the {@code --host} as given
     * @param what what is reachable ("the page", "this server")
     */
    public static String warning(String host, String what) {
        return "fleet: warning: --host " + Printable.of(host) + " is not a loopback address: " + what
                + " is reachable from other hosts, with no authentication, under any host name (so a web page whose "
                + "name resolves here may read the verdict: DNS rebinding); where you can, bind 127.0.0.1 and use an "
                + "SSH tunnel";
    }
}
