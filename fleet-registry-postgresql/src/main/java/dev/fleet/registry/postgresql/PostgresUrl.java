package dev.fleet.registry.postgresql;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The one form a PostgreSQL registry is named in, {@code postgresql://USER@HOST[:PORT]/DB} ({@code
 * postgres://} too), read part by part and never percent-decoded. Each part has a strict character set,
 * so no text of the caller's reaches the JDBC driver as anything but that part: a database name that
 * smuggled {@code ?readOnly=false} in, percent-encoded, once became the driver's parameters (issue 45).
 * Accepted (docs/CONTRACT.md, "Many hosts"): USER and DB are 1 to 63 ASCII letters, digits, {@code _},
 * {@code -} or {@code .} (63 bytes is PostgreSQL's limit for a name); HOST is a host name (dot-separated
 * labels of letters, digits, {@code -} and {@code _}), a dotted IPv4 address or a bracketed IPv6 address;
 * PORT is 1 to 65535, 5432 when left out.
 */
final class PostgresUrl {

    static final String FORM = "postgresql://USER@HOST:PORT/DB";
    static final int DEFAULT_PORT = 5432;

    private static final String[] SCHEMES = {"postgresql://", "postgres://"};
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,63}");
    private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?");
    private static final Pattern DIGITS_AND_DOTS = Pattern.compile("[0-9.]+");
    private static final Pattern IPV4 = Pattern.compile("((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}"
            + "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])");
    private static final Pattern IPV6 = Pattern.compile("\\[[0-9A-Fa-f:.]{2,45}\\]");
    private static final Pattern PORT = Pattern.compile("[0-9]{1,5}");
    /** How much of a refused part an error echoes: enough to recognise it, never a megabyte. */
    private static final int ECHOED = 80;

    private PostgresUrl() {
    }

    /** Whether {@code value} names a PostgreSQL registry (either scheme, any case) rather than a SQLite file. */
    static boolean isUrl(String value) {
        return value != null && scheme(value.strip()) != null;
    }

    /** @throws IllegalArgumentException naming the part that is wrong and what it may be, in one line */
    static PostgresLocation parse(String value) {
        String text = value.strip();
        String scheme = scheme(text);
        int slash = scheme == null ? -1 : text.indexOf('/', scheme.length());
        int at = slash < 0 ? -1 : text.lastIndexOf('@', slash);
        if (scheme == null || at < scheme.length()) {
            throw new IllegalArgumentException("not a PostgreSQL URL of the form " + FORM);
        }
        String user = text.substring(scheme.length(), at);
        if (user.contains(":")) {
            throw new IllegalArgumentException("a PostgreSQL URL never carries the password: set PGPASSWORD or use "
                    + "~/.pgpass");
        }
        String hostAndPort = text.substring(at + 1, slash);
        int portColon = hostAndPort.startsWith("[") ? hostAndPort.indexOf(':', hostAndPort.indexOf(']') + 1)
                : hostAndPort.indexOf(':');
        String host = portColon < 0 ? hostAndPort : hostAndPort.substring(0, portColon);
        int port = portColon < 0 ? DEFAULT_PORT : port(hostAndPort.substring(portColon + 1));
        return new PostgresLocation(user, host, port, text.substring(slash + 1));
    }

    /** The scheme {@code text} starts with, in any case, as written there; null for none. */
    private static String scheme(String text) {
        for (String scheme : SCHEMES) {
            if (text.length() >= scheme.length()
                    && text.substring(0, scheme.length()).toLowerCase(Locale.ROOT).equals(scheme)) {
                return text.substring(0, scheme.length());
            }
        }
        return null;
    }

    private static int port(String text) {
        int port = PORT.matcher(text).matches() ? Integer.parseInt(text) : 0;
        checkPort(port, text);
        return port;
    }

    /** The checks every {@link PostgresLocation} passes, however it was made. */
    static void check(String user, String host, int port, String database) {
        if (user == null || !NAME.matcher(user).matches()) {
            throw refused("user", user, "1 to 63 ASCII letters, digits, '_', '-' or '.'");
        }
        if (host == null || !validHost(host)) {
            throw refused("host", host, "a host name, a dotted IPv4 address or a bracketed IPv6 address");
        }
        checkPort(port, String.valueOf(port));
        if (database == null || !NAME.matcher(database).matches()) {
            throw refused("database name", withoutParameters(database), "1 to 63 ASCII letters, digits, '_', '-' "
                    + "or '.': one path segment, without parameters or percent-encoding");
        }
    }

    private static void checkPort(int port, String text) {
        if (port < 1 || port > 65535) {
            // Text where the port goes may be a password typed there (user@host:secret/db): never echoed.
            throw refused("port", PORT.matcher(text).matches() ? text : "(not shown: no number)",
                    "a number from 1 to 65535 (5432 when left out)");
        }
    }

    /**
     * A database part as an error may echo it: without what follows {@code ?}, {@code #} or {@code ;},
     * which may be libpq parameters such as {@code password=}, never printed (logs keep stderr).
     */
    private static String withoutParameters(String database) {
        if (database == null) {
            return null;
        }
        for (int i = 0; i < database.length(); i++) {
            char c = database.charAt(i);
            if (c == '?' || c == '#' || c == ';') {
                return database.substring(0, i + 1) + "(the rest not shown)";
            }
        }
        return database;
    }

    private static boolean validHost(String host) {
        if (host.startsWith("[")) {
            return IPV6.matcher(host).matches() && host.contains(":") && isIpv6Literal(host);
        }
        if (DIGITS_AND_DOTS.matcher(host).matches()) {
            return IPV4.matcher(host).matches();
        }
        if (host.length() > 253) {
            return false;
        }
        for (String label : host.split("\\.", -1)) {
            if (!LABEL.matcher(label).matches()) {
                return false;
            }
        }
        return true;
    }

    /** A bracketed literal is parsed, never looked up: the JDK resolves no name that starts with '['. */
    private static boolean isIpv6Literal(String bracketed) {
        try {
            InetAddress.getByName(bracketed);
            return true;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static IllegalArgumentException refused(String part, String value, String accepted) {
        return new IllegalArgumentException("the " + part + " of a PostgreSQL URL (" + FORM + ") is " + accepted
                + "; refused: " + (value == null ? "none" : "'" + echo(value) + "'"));
    }

    /** Enough of {@code value} to recognise it, on one line: a character not printable ASCII as its Java escape. */
    private static String echo(String value) {
        StringBuilder shown = new StringBuilder();
        for (char c : value.substring(0, Math.min(value.length(), ECHOED)).toCharArray()) {
            shown.append(c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\u%04x", (int) c));
        }
        return value.length() > ECHOED ? shown + "…" : shown.toString();
    }
}
