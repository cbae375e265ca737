package dev.fleet.cli;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.text.similarity.LevenshteinDistance;
import picocli.CommandLine;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * A verb or option the operator mistyped: which error names it, and what it was most likely meant
 * to be ({@code fleet dmeo}: demo). picocli's own suggestions alone miss two letters swapped
 * ({@code dmeo}, {@code --fromat}, {@code registry lsit}: they compare letter pairs, or an option's
 * first two letters) and give none after {@code help}; so the names nearest by Levenshtein distance
 * come first, and picocli's only where none is near and the typed word begins them (an abbreviation).
 */
final class Mistyped {

    /** Edits a word of four letters or more may be away from a name and still suggest it. */
    private static final int MOST_EDITS = 2;

    private Mistyped() {
    }

    /**
     * The error to report for {@code error}: picocli checks required options before unknown ones,
     * so {@code serve --profle X} would say that --profile is missing. The mistyped option is why,
     * and is named instead, with its suggestion. A stray word is no mistyped option: {@code wait
     * gate} still says that --for is missing.
     */
    static ParameterException firstToReport(ParameterException error) {
        ParseResult parsed = error.getCommandLine().getParseResult();
        if (error instanceof MissingParameterException && parsed != null && !parsed.unmatched().isEmpty()) {
            UnmatchedArgumentException unknown = new UnmatchedArgumentException(error.getCommandLine(),
                    parsed.unmatched());
            return unknown.isUnknownOption() ? unknown : error;
        }
        return error;
    }

    /**
     * What went wrong, in this CLI's words: a word where a verb was expected is an unknown verb, where
     * picocli would say "Unmatched argument at index 0" (or "Unknown subcommand", after help); any
     * other error as picocli says it.
     */
    static String problem(ParameterException error) {
        if (error instanceof UnmatchedArgumentException unmatched && !unmatched.isUnknownOption()
                && !unmatched.getUnmatched().isEmpty() && expectsVerb(unmatched.getCommandLine().getCommandSpec())) {
            return "Unknown verb '" + unmatched.getUnmatched().get(0) + "'.";
        }
        if (error.getValue() != null && isHelp(error.getCommandLine())) {
            return "Unknown verb '" + error.getValue() + "'.";
        }
        return error.getMessage();
    }

    /** What {@code error}'s unknown verb or option was most likely meant to be, nearest first; none for other errors. */
    static List<String> suggestions(ParameterException error) {
        if (error instanceof UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()) {
            CommandSpec spec = unmatched.getCommandLine().getCommandSpec();
            String typed = unmatched.getUnmatched().get(0);
            List<String> nearest = nearest(typed, unmatched.isUnknownOption() ? optionNames(spec) : verbs(spec));
            return nearest.isEmpty() ? abbreviated(typed, unmatched.getSuggestions()) : nearest;
        }
        if (error.getValue() != null && isHelp(error.getCommandLine())) {
            return nearest(error.getValue(), verbs(error.getCommandLine().getCommandSpec()));
        }
        return List.of();
    }

    /**
     * The names at the fewest edits from {@code typed}, dashes and case aside: at most two, one for a
     * word of two or three letters, none for a single letter (every short option is one edit from it).
     */
    static List<String> nearest(String typed, Collection<String> names) {
        String word = bare(typed);
        LevenshteinDistance distance = new LevenshteinDistance(Math.min(MOST_EDITS, word.length() / 2));
        Map<Integer, List<String>> byEdits = new TreeMap<>();
        for (String name : names) {
            int edits = distance.apply(word, bare(name));
            if (edits >= 0) { // -1: beyond the limit
                byEdits.computeIfAbsent(edits, none -> new ArrayList<>()).add(name);
            }
        }
        return byEdits.values().stream().findFirst().orElse(List.of());
    }

    /**
     * picocli's suggestions that {@code typed} begins ({@code proc}: processes): it compares letter pairs, so
     * alone it offered dashboard for {@code bogus} and roster beside processes for {@code proc}.
     */
    private static List<String> abbreviated(String typed, List<String> suggestions) {
        String word = bare(typed);
        return word.isEmpty() ? List.of()
                : suggestions.stream().filter(name -> bare(name).startsWith(word)).toList();
    }

    /** A name as compared: without its leading dashes, an {@code =value} or capitals. */
    private static String bare(String name) {
        int equals = name.indexOf('=');
        return (equals < 0 ? name : name.substring(0, equals)).replaceFirst("^-+", "").toLowerCase(Locale.ROOT);
    }

    private static List<String> optionNames(CommandSpec spec) {
        return spec.options().stream().filter(option -> !option.hidden())
                .flatMap(option -> List.of(option.names()).stream()).toList();
    }

    private static List<String> verbs(CommandSpec spec) {
        return spec.subcommands().entrySet().stream()
                .filter(verb -> !verb.getValue().getCommandSpec().usageMessage().hidden()).map(Map.Entry::getKey)
                .toList();
    }

    /** Whether the word after {@code spec}'s options can only be one of its verbs ({@code fleet}, {@code fleet registry}). */
    private static boolean expectsVerb(CommandSpec spec) {
        return !spec.subcommands().isEmpty() && spec.positionalParameters().isEmpty();
    }

    /** Whether {@code command} ran its {@code help} verb: its error's value is the verb help was asked about. */
    private static boolean isHelp(CommandLine command) {
        ParseResult parsed = command.getParseResult();
        return parsed != null && parsed.hasSubcommand()
                && parsed.subcommand().commandSpec().userObject() instanceof CommandLine.HelpCommand;
    }
}
