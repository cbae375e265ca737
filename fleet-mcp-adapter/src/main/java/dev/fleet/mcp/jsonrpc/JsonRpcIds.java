package dev.fleet.mcp.jsonrpc;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * JSON-RPC ids as keys, equal exactly when the ids are equal by value (the contract, §12.1): a string
 * id and a number id that print alike are different ids, and {@code 1}, {@code 1.0}, {@code 10e-1}
 * and {@code 0.1e1} are one id. A key never holds more than a few hundred characters, however long
 * the id: the relay keeps thousands of them for days.
 */
final class JsonRpcIds {

    /** Longer keys are kept as a digest: 4,096 waiting requests with megabyte ids would hold gigabytes. */
    private static final int LONGEST_KEPT = 256;
    /** An exponent of more digits than this is not added to (the value would not fit a long). */
    private static final int LONGEST_EXPONENT = 17;

    private JsonRpcIds() {
    }

    /** The key of a string id, from its value (escapes decoded: {@code "\u0061"} and {@code "a"} are one id). */
    static String stringKey(String value) {
        return bounded("s" + value);
    }

    /**
     * The key of a number id, from its JSON text: the digits without leading or trailing zeros and the
     * power of ten they are multiplied by, so that equal values meet whatever their spelling. It is
     * computed on the text, never by expanding the number: {@code 1e999999999} costs a few bytes.
     */
    static String numberKey(String text) {
        int at = 0;
        boolean negative = text.startsWith("-");
        if (negative) {
            at = 1;
        }
        int exponentAt = Math.max(text.indexOf('e', at), text.indexOf('E', at));
        String mantissa = text.substring(at, exponentAt < 0 ? text.length() : exponentAt);
        int point = mantissa.indexOf('.');
        String digits = point < 0 ? mantissa : mantissa.substring(0, point) + mantissa.substring(point + 1);
        long shift = point < 0 ? 0 : -(mantissa.length() - point - 1);
        int first = 0;
        while (first < digits.length() && digits.charAt(first) == '0') {
            first++;
        }
        int last = digits.length();
        while (last > first && digits.charAt(last - 1) == '0') {
            last--;
        }
        if (first == last) {
            return "n0"; // zero, whatever its sign and spelling
        }
        shift += digits.length() - last;
        String significant = digits.substring(first, last);
        String exponent = exponentAt < 0 ? "" : text.substring(exponentAt + 1);
        return bounded("n" + (negative ? "-" : "") + significant + "e" + plus(exponent, shift));
    }

    /** {@code exponent} (a JSON exponent's text: sign and digits) plus {@code shift}, as text. */
    private static String plus(String exponent, long shift) {
        boolean negative = exponent.startsWith("-");
        int at = exponent.startsWith("-") || exponent.startsWith("+") ? 1 : 0;
        while (at < exponent.length() - 1 && exponent.charAt(at) == '0') {
            at++;
        }
        String digits = at < exponent.length() ? exponent.substring(at) : "0";
        if (digits.length() > LONGEST_EXPONENT) {
            // beyond any value BigDecimal holds: kept as written, with the shift beside it, so that
            // distinct values never meet (equal ones spelt differently may not, a price nobody pays)
            return (negative ? "-" : "") + digits + (shift < 0 ? "" : "+") + shift + "~";
        }
        long value = Long.parseLong(digits);
        return Long.toString((negative ? -value : value) + shift);
    }

    private static String bounded(String key) {
        if (key.length() <= LONGEST_KEPT) {
            return key;
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(UTF_8));
            return "#" + key.charAt(0) + HexFormat.of().formatHex(digest); // '#' begins no short key
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
