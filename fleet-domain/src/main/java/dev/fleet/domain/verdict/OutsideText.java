package dev.fleet.domain.verdict;

import dev.fleet.domain.SecretMask;

/**
 * The cap on every string a verdict takes from outside the program (a command line, any text field
 * of a registry row): an answer must fit every client, and a process with a megabyte of argv must
 * not make the gate unanswerable. The cap is applied when the verdict is rendered, before
 * digesting, never before comparing: two long cohort ids that differ only past the cap still split
 * the cohort. (An observer keeps each command line capped already, as it is shown: nothing compares
 * command lines.) Capping a capped text changes nothing, so a text stored capped (a wrapped server's
 * {@code server_command}) keeps the length it had before.
 */
public final class OutsideText {

    /** The contract: characters (Unicode code points) kept of a longer string. */
    public static final int MAX_CHARS = 4096;

    private static final String SUFFIX_START = "…[truncated, ";
    private static final String SUFFIX_END = " chars]";
    /** Digits of N in a suffix this cap writes: a Java string holds fewer than 2^31 characters. */
    private static final int MAX_COUNT_DIGITS = 10;
    /** Rounds of masking and cutting a capped line's kept part, at most ({@link #commandLine}). */
    private static final int MAX_PASSES = 8;

    private OutsideText() {
    }

    /** {@code text} itself, or its first {@value #MAX_CHARS} characters and {@code …[truncated, N chars]}. */
    public static String cap(String text) {
        if (text == null || text.length() <= MAX_CHARS) {
            return text;
        }
        int length = text.codePointCount(0, text.length());
        if (length <= MAX_CHARS) {
            return text;
        }
        int kept = text.offsetByCodePoints(0, MAX_CHARS);
        if (isSuffix(text.substring(kept))) {
            return text;
        }
        return text.substring(0, kept) + SUFFIX_START + length + SUFFIX_END;
    }

    /**
     * A command line as fleet shows it: secrets masked ({@link SecretMask#commandLine}), then capped. A line capped
     * already (an observer keeps a long one so, and a row may hold one) keeps its suffix out of the masking: a cut
     * right after {@code --token} would otherwise hide the suffix's count as that option's value. Its cut word is
     * read as a whole one, so it may show less than the whole line would have (a URL cut before its host), never
     * more; masking and cutting repeat until they change nothing (at most {@value #MAX_PASSES} times), so showing a
     * shown line changes nothing.
     */
    public static String commandLine(String line) {
        if (line == null) {
            return null;
        }
        String shown = suffixAt(line) < 0 ? cap(SecretMask.commandLine(line)) : line;
        int suffix = suffixAt(shown);
        if (suffix < 0) {
            return shown;
        }
        String kept = shown.substring(0, suffix);
        for (int pass = 0; pass < MAX_PASSES; pass++) {
            String again = SecretMask.commandLine(kept);
            int length = again.codePointCount(0, again.length());
            again = length > MAX_CHARS ? again.substring(0, again.offsetByCodePoints(0, MAX_CHARS)) : again;
            if (again.equals(kept)) {
                break;
            }
            kept = again;
        }
        return kept + shown.substring(suffix);
    }

    /** Where the suffix of a capped {@code text} begins (after at most {@value #MAX_CHARS} characters), or -1. */
    private static int suffixAt(String text) {
        int suffix = text.lastIndexOf(SUFFIX_START);
        return suffix >= 0 && isSuffix(text.substring(suffix)) && text.codePointCount(0, suffix) <= MAX_CHARS
                ? suffix : -1;
    }

    /** {@code …[truncated, N chars]} exactly, as {@link #cap} writes it: the text was capped already. */
    private static boolean isSuffix(String rest) {
        if (!rest.startsWith(SUFFIX_START) || !rest.endsWith(SUFFIX_END)) {
            return false;
        }
        String count = rest.substring(SUFFIX_START.length(), Math.max(SUFFIX_START.length(),
                rest.length() - SUFFIX_END.length()));
        return !count.isEmpty() && count.length() <= MAX_COUNT_DIGITS && count.chars().allMatch(c -> c >= '0' && c <= '9');
    }
}
