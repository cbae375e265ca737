package dev.fleet.domain;

/**
 * The URL part of {@link SecretMask}: a word's {@code scheme://user:password@} and {@code scheme://user@}
 * secrets masked, each scan bounded to the word.
 */
final class UrlSecrets {

    private UrlSecrets() {
    }

    /** {@code text[start, end)} with its URLs' secrets masked ({@link #appendWithUrlsMasked}). */
    static String masked(String text, int start, int end) {
        StringBuilder shown = new StringBuilder(end - start);
        appendWithUrlsMasked(text, start, end, shown);
        return shown.toString();
    }

    /**
     * Appends {@code word} ({@code text[start, end)}) with every {@code scheme://user:password@}'s password
     * masked (the user info runs from the {@code ://} to the last {@code @} before the next URL, since a
     * password may hold {@code @} or {@code /}; the password from its first {@code :}), and the whole user
     * part of a {@code scheme://user@} that has no password (up to the last {@code @} before its host ends
     * at a {@code /}, {@code ?} or {@code #}). Each scan runs from one {@code ://} to the next, so the word is
     * read a bounded number of times over.
     */
    private static void appendWithUrlsMasked(String text, int start, int end, StringBuilder shown) {
        int copied = start;
        int mark = urlMark(text, start, end);
        while (mark >= 0) {
            int from = mark + 3;
            int next = urlMark(text, from, end);
            int limit = next < 0 ? end : next;
            if (mark > start && isSchemeChar(text.charAt(mark - 1))) {
                int at = lastIndexOf(text, '@', from, limit);
                int colon = indexOf(text, ':', from, at < 0 ? from : at);
                if (colon >= 0 && at > colon + 1) {
                    shown.append(text, copied, colon + 1).append(SecretMask.MASK);
                    copied = at;
                } else {
                    int userAt = lastIndexOf(text, '@', from, hostEnd(text, from, limit));
                    if (userAt > from) {
                        shown.append(text, copied, from).append(SecretMask.MASK);
                        copied = userAt;
                    }
                }
            }
            mark = limit < end ? limit : -1;
        }
        shown.append(text, copied, end);
    }

    /** The first {@code ://} wholly in {@code text[from, end)}, or -1: never scans past {@code end}. */
    private static int urlMark(String text, int from, int end) {
        for (int i = indexOf(text, ':', from, end); i >= 0; i = indexOf(text, ':', i + 1, end)) {
            if (i + 2 < end && text.charAt(i + 1) == '/' && text.charAt(i + 2) == '/') {
                return i;
            }
        }
        return -1;
    }

    /** Where the authority starting at {@code from} ends: its first {@code /}, {@code ?} or {@code #}, else {@code limit}. */
    private static int hostEnd(String text, int from, int limit) {
        for (int i = from; i < limit; i++) {
            char c = text.charAt(i);
            if (c == '/' || c == '?' || c == '#') {
                return i;
            }
        }
        return limit;
    }

    /** The last {@code c} in {@code text[from, limit)}, or -1: never scans below {@code from}. */
    private static int lastIndexOf(String text, char c, int from, int limit) {
        for (int i = limit - 1; i >= from; i--) {
            if (text.charAt(i) == c) {
                return i;
            }
        }
        return -1;
    }

    /** The first {@code c} in {@code text[from, limit)}, or -1: never scans past {@code limit}. */
    static int indexOf(String text, char c, int from, int limit) {
        for (int i = from; i < limit; i++) {
            if (text.charAt(i) == c) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isSchemeChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '+' || c == '-'
                || c == '.';
    }
}
