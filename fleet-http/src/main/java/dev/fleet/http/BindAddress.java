package dev.fleet.http;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;

/**
 * Where an HTTP surface binds: the address as the operator spelled it ({@code --host}) and as it
 * resolved. It says where a client should go and whether the operator must be warned.
 */
public record BindAddress(String host, InetAddress address) {

    public BindAddress {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(address, "address");
    }

    /**
     * Resolves {@code host}; an unknown name is the operator's to fix, like an address in use.
     *
     * @param what what would be served there, for the one-line error ("MCP", "the dashboard")
     * @throws IllegalStateException for a host that does not resolve
     */
    public static BindAddress resolve(String host, String what) {
        try {
            return new BindAddress(host, InetAddress.getByName(host));
        } catch (UnknownHostException | SecurityException e) {
            throw new IllegalStateException("cannot serve " + what + " on " + host + ": unknown host", e);
        }
    }

    /**
     * Whether the bind reaches beyond this host: any address but a loopback one (the wildcard
     * {@code 0}/{@code 0.0.0.0}/{@code ::} included). The operator should be told.
     */
    public boolean exposedBeyondLoopback() {
        return !address.isLoopbackAddress();
    }

    /**
     * The host a client should use: for a wildcard bind ({@code 0}, {@code 0.0.0.0}, {@code ::})
     * the loopback address, which reaches it from this host; otherwise the numeric bound address, a
     * loopback one too ({@code ::1} and {@code 127.0.0.2} are not reached at {@code 127.0.0.1}).
     */
    public String announcedHost() {
        if (address.isAnyLocalAddress()) {
            return "127.0.0.1";
        }
        if (address.isLoopbackAddress() && address instanceof Inet6Address) {
            return "[::1]"; // the spelling the Host rule knows, not 0:0:0:0:0:0:0:1
        }
        return OriginRule.uriHost(address.getHostAddress());
    }

    /** The Origin and Host rule of a server bound here on {@code port} (the port really bound). */
    public OriginRule origins(int port) {
        return new OriginRule(OriginRule.uriHost(host), address.isLoopbackAddress(), port, announcedHost());
    }
}
