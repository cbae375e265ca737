package dev.fleet.observer;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * What an observer remembers of long command lines (over {@value ServerPatterns#LONGEST_REMEMBERED} characters),
 * which any local user can make megabytes long: each is known by a digest of the bytes {@code /proc} gave, and its
 * shown form (secrets masked, capped as a verdict caps it) is kept under that key. A repeated look then neither
 * masks the megabytes again nor keeps them: a look keeps some 4 KB of each such process, whatever its argv.
 *
 * <p>Thread-safe: one instance serves every look of an observer.
 */
final class LongLines {

    /** Shown forms remembered at most; past it the memory starts afresh. */
    static final int REMEMBERED = 1024;

    private final Map<String, String> shown = new ConcurrentHashMap<>();

    /**
     * The key of the command line in {@code raw[0, length)}, computed when first asked: the caller asks before it
     * reads into that buffer again. No command line's text can equal it (it holds a NUL), and the line's arguments,
     * and so its text, are a function of those bytes: an exact key for anything read from them.
     */
    static Supplier<String> keyOf(byte[] raw, int length) {
        return new Supplier<>() {
            private String key;

            @Override
            public String get() {
                if (key == null) {
                    MessageDigest sha = sha256();
                    sha.update(raw, 0, length);
                    key = "\u0000raw sha-256 " + HexFormat.of().formatHex(sha.digest());
                }
                return key;
            }
        };
    }

    /** {@code arguments} as kept and shown ({@link CommandLines#shown}); a long line's remembered under {@code key}. */
    String shown(String arguments, Supplier<String> key) {
        if (arguments.length() <= ServerPatterns.LONGEST_REMEMBERED) {
            return CommandLines.shown(arguments);
        }
        String known = shown.get(key.get());
        if (known != null) {
            return known;
        }
        String line = CommandLines.shown(arguments);
        if (shown.size() >= REMEMBERED) {
            shown.clear();
        }
        shown.put(key.get(), line);
        return line;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
