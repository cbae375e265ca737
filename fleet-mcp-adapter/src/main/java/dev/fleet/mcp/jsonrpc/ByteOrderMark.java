package dev.fleet.mcp.jsonrpc;

/**
 * The UTF-8 byte order mark some writers begin a text with. JSON lets a reader ignore it (RFC 8259, §8.1), and
 * fleet's own reader does; but a message passed on with it is no JSON to a strict reader (Node's
 * {@code JSON.parse}, which the TypeScript SDK reads each line with), so it is dropped wherever fleet passes
 * bytes on.
 */
public final class ByteOrderMark {

    /** How many bytes the mark takes. */
    public static final int LENGTH = 3;

    private ByteOrderMark() {
    }

    /** Whether {@code buffer[0, length)} begins with the mark. */
    public static boolean leads(byte[] buffer, int length) {
        return length >= LENGTH && buffer[0] == (byte) 0xEF && buffer[1] == (byte) 0xBB && buffer[2] == (byte) 0xBF;
    }
}
