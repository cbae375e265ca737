package dev.fleet.http;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Which {@code Host} and {@code Origin} headers the HTTP endpoint accepts (DNS-rebinding and
 * cross-site protection; docs/CONTRACT.md).
 *
 * <p>The rule: a request without {@code Origin} (every non-browser MCP client) is accepted. A
 * request with one is accepted only when it parses as exactly {@code http://HOST:PORT} (or
 * {@code http://HOST} for port 80): scheme {@code http}, no user info, no path other than empty,
 * no query or fragment, HOST one of the loopback names ({@code 127.0.0.1}, {@code localhost},
 * {@code [::1]}) or the literal address the server is bound to, and PORT this server's own port.
 * In other words, only a page served from this very server's origin. So
 * {@code http://127.0.0.1:80@evil.example} (a user-info trick naming host evil.example) and
 * {@code http://localhost:5/evil} (another port, and a path) are refused, as is {@code null}.
 *
 * <p>{@code Host}: on a loopback bind it must name a loopback host with this port (a DNS name that
 * rebinds to 127.0.0.1 is refused); on a deliberate non-loopback bind any Host is accepted.
 *
 * <p>{@code Sec-Fetch-Site} (a browser's Fetch Metadata): a request a browser says another site's page made is
 * refused, but for a person following a link to a page ({@link #fromOwnPageOrThePerson}). A browser sends no
 * {@code Origin} with a GET an {@code <img>} or a {@code <script>} makes, and {@code Host} is then this server's
 * own: a web page in the operator's browser held every place of the dashboard's event streams so.
 *
 * <p>One rule for every HTTP surface of {@code fleet}: the MCP endpoint and the dashboard.
 */
public final class OriginRule {

    private static final Set<String> LOOPBACK_NAMES = Set.of("127.0.0.1", "localhost", "[::1]");

    private final Set<String> hosts;
    private final String announcedHost;
    private final boolean checkHost;
    private final int port;

    /**
     * @param boundHost the bind address as a URI writes it (IPv6 in brackets)
     * @param loopback whether the server is bound to a loopback address
     * @param port the bound port
     * @param announcedHost the host a client should use (a wildcard bind's is 127.0.0.1), as a refusal names it
     */
    public OriginRule(String boundHost, boolean loopback, int port, String announcedHost) {
        this.hosts = union(LOOPBACK_NAMES, boundHost.toLowerCase(Locale.ROOT));
        this.announcedHost = announcedHost.toLowerCase(Locale.ROOT);
        this.checkHost = loopback;
        this.port = port;
    }

    /** The host as a URI writes it: an IPv6 literal in brackets. */
    public static String uriHost(String host) {
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    /**
     * Whether a request's headers ({@code request::getHeaders}) are acceptable, every value it gave of each: at
     * most one {@code Origin} and one {@code Host}, each accepted. A second one is refused whatever it says, since a
     * proxy or cache in front may read it rather than the first (RFC 9112 answers a second Host with 400).
     */
    public boolean accepts(Function<String, Enumeration<String>> headers) {
        return acceptsOriginAndHost(headers) && fromOwnPageOrThePerson(headers);
    }

    /**
     * Whether a request is refused for its browser's Fetch Metadata alone ({@link #fromOwnPageOrThePerson}): its
     * {@code Origin} and {@code Host} are this server's own, so "foreign Origin or Host" would send its author
     * looking for a wrong address or tunnel.
     */
    public boolean refusesAnotherSitesPage(Function<String, Enumeration<String>> headers) {
        return acceptsOriginAndHost(headers) && !fromOwnPageOrThePerson(headers);
    }

    private boolean acceptsOriginAndHost(Function<String, Enumeration<String>> headers) {
        List<String> origins = values(headers.apply("Origin"));
        List<String> hosts = values(headers.apply("Host"));
        return origins.size() <= 1 && hosts.size() <= 1
                && accepts(origins.isEmpty() ? null : origins.get(0), hosts.isEmpty() ? null : hosts.get(0));
    }

    /**
     * Whether a browser's Fetch Metadata says the request came from this server's own page ({@code same-origin}), from
     * the person ({@code none}: an address typed, a bookmark) or from a link followed to a page (a top-level
     * navigation that is no prefetch); a request without it (every client but a browser, and a browser too old to
     * send it) is left to the other rules. Another site's page is refused whatever it asks: even a same-site one, on
     * another port.
     */
    static boolean fromOwnPageOrThePerson(Function<String, Enumeration<String>> headers) {
        List<String> site = values(headers.apply("Sec-Fetch-Site"));
        if (site.isEmpty()) {
            return true;
        }
        String from = site.size() == 1 ? site.get(0).strip().toLowerCase(Locale.ROOT) : "";
        // A link followed is a person's; a prefetch (Sec-Purpose) is the other page's speculation rules, which may
        // ask for dozens of addresses at once and would hold as many event streams.
        return from.equals("same-origin") || from.equals("none")
                || only(headers, "Sec-Fetch-Mode", "navigate") && only(headers, "Sec-Fetch-Dest", "document")
                        && values(headers.apply("Sec-Purpose")).isEmpty();
    }

    private static boolean only(Function<String, Enumeration<String>> headers, String name, String value) {
        List<String> given = values(headers.apply(name));
        return given.size() == 1 && given.get(0).strip().equalsIgnoreCase(value);
    }

    /** What a request refused by {@link #accepts} is told, in one line: another site's page, or {@link #refusal()}. */
    public String refusal(Function<String, Enumeration<String>> headers) {
        return refusesAnotherSitesPage(headers) ? "forbidden: another site's page (Sec-Fetch-Site); this server answers "
                + "its own pages, an address typed and a link followed" : refusal();
    }

    /**
     * What a person whose browser was refused is told, in one line: the names this server answers at its own port,
     * and how an SSH tunnel keeps them (a tunnel to another local port makes every page's {@code Origin} foreign).
     */
    public String refusal() {
        String names = union(LOOPBACK_NAMES, announcedHost).stream().sorted().map(name -> name + ":" + port)
                .collect(Collectors.joining(", "));
        return "forbidden: foreign Origin or Host; this server answers pages of " + names + " only: through an SSH "
                + "tunnel, forward the same port (ssh -L " + port + ":" + announcedHost + ":" + port + " HOST)";
    }

    private static List<String> values(Enumeration<String> header) {
        return header == null ? List.of() : Collections.list(header);
    }

    /** Whether both headers of a request are acceptable: {@link #acceptsOrigin} and {@link #acceptsHost}. */
    public boolean accepts(String origin, String host) {
        return acceptsOrigin(origin) && acceptsHost(host);
    }

    public boolean acceptsOrigin(String origin) {
        if (origin == null) {
            return true;
        }
        try {
            URI uri = new URI(origin.trim());
            return "http".equalsIgnoreCase(uri.getScheme())
                    && uri.getRawUserInfo() == null
                    && (uri.getRawPath() == null || uri.getRawPath().isEmpty())
                    && uri.getRawQuery() == null && uri.getRawFragment() == null
                    && uri.getHost() != null && hosts.contains(uri.getHost().toLowerCase(Locale.ROOT))
                    && (uri.getPort() == -1 ? 80 : uri.getPort()) == port;
        } catch (URISyntaxException e) {
            return false;
        }
    }

    public boolean acceptsHost(String host) {
        if (!checkHost) {
            return true;
        }
        if (host == null) {
            return false;
        }
        return acceptsOrigin("http://" + host.trim());
    }

    private static Set<String> union(Set<String> names, String more) {
        java.util.HashSet<String> all = new java.util.HashSet<>(names);
        all.add(more);
        return Set.copyOf(all);
    }
}
