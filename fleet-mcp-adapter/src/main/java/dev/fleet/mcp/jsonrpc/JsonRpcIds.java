package dev.fleet.mcp.jsonrpc;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * JSON-RPC ids as keys, equal exactly when the ids are equal by value (the contract, §12.1): a string
 * id and a number id that print alike are different ids, and {@code 1}, {@code 1.0}, {@code 10e-1}
 * and {@code 0.1e1} are one id. A key never holds more than a few hundred characters, however long
 * the id: the relay keeps thousands of them for days.
 */
final class JsonRpcIds {

    /** Longer keys are kept as a digest: 4,096 waiting requests with megabyte ids would hold gigabytes. */
    private static final int LONGEST_KEPT = 256;
    /** An exponent of more digits than this is added to in decimal (the value would not fit a long). */
    private static final int LONGEST_EXPONENT = 17;
    /** The last digits of such an exponent, added to as a long: 10^18 of them. */
    private static final int TAIL_DIGITS = 18;
    private static final long TAIL = 1_000_000_000_000_000_000L;

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
            // Beyond a long: added in decimal, digit by digit where a carry goes. The shift (a count of a
            // line's digits) is smaller than such an exponent, so the exponent keeps its sign.
            return (negative ? "-" : "") + added(digits, negative ? -shift : shift);
        }
        long value = Long.parseLong(digits);
        return Long.toString((negative ? -value : value) + shift);
    }

    /** {@code digits} (of at least 18, no leading zero) plus {@code delta}, where |delta| < 10^17: as digits. */
    private static String added(String digits, long delta) {
        int split = digits.length() - TAIL_DIGITS;
        long tail = Long.parseLong(digits.substring(split)) + delta;
        StringBuilder head = new StringBuilder(digits.substring(0, split));
        int carry = tail >= TAIL ? 1 : tail < 0 ? -1 : 0;
        tail -= carry * TAIL;
        for (int i = head.length() - 1; carry != 0; i--) {
            if (i < 0) {
                head.insert(0, '1'); // a carry past the first digit (a borrow never gets there: the value stays positive)
                break;
            }
            int digit = head.charAt(i) - '0' + carry;
            carry = digit > 9 ? 1 : digit < 0 ? -1 : 0;
            head.setCharAt(i, (char) ('0' + digit - 10 * carry));
        }
        String sum = head + String.format(Locale.ROOT, "%0" + TAIL_DIGITS + "d", tail);
        int first = 0;
        while (first < sum.length() - 1 && sum.charAt(first) == '0') {
            first++;
        }
        return sum.substring(first);
    }

    private static String bounded(String key) {
        if (key.length() <= LONGEST_KEPT) {
            return key;
        }
        try {
            // Every char, two bytes each: an encoding (UTF-8's) turns each lone surrogate into '?', so that an
            // id ending in '?' and the same id ending in any lone surrogate met, and a child could answer one
            // for the other.
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            ByteBuffer chars = ByteBuffer.allocate(8192);
            for (int i = 0; i < key.length(); i++) {
                if (!chars.hasRemaining()) {
                    sha.update(chars.flip());
                    chars.clear();
                }
                chars.putChar(key.charAt(i));
            }
            sha.update(chars.flip());
            byte[] digest = sha.digest();
            return "#" + key.charAt(0) + HexFormat.of().formatHex(digest); // '#' begins no short key
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
