package dev.fleet.cli;

import dev.fleet.cli.exit.ExitCodes;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Which verb help was asked about, settled before any help is shown. picocli shows help whenever
 * {@code --help} is among the arguments and lets an unmatched word pass: {@code fleet metrics --help}
 * printed the top level's help and exited 0, as though {@code metrics} were a verb, and {@code fleet
 * registry lsit --help} the family's. A word where a verb was expected is an unknown verb there too
 * (one line, exit 2, with its suggestion). And picocli's {@code help} reads one verb: {@code fleet help
 * registry list} showed {@code fleet registry}'s help and dropped {@code list}; here it follows every
 * word, as {@code fleet registry list --help} does.
 */
final class HelpAsked implements CommandLine.IExecutionStrategy {

    static final HelpAsked INSTANCE = new HelpAsked();

    private static final CommandLine.IExecutionStrategy RUN = new CommandLine.RunLast();

    private HelpAsked() {
    }

    @Override
    public int execute(ParseResult parsed) {
        ParseResult last = parsed;
        for (ParseResult level = parsed; level != null; level = level.subcommand()) {
            if (!level.unmatched().isEmpty() && expectsVerb(level.commandSpec().commandLine())) {
                throw new UnmatchedArgumentException(level.commandSpec().commandLine(), level.unmatched());
            }
            last = level;
        }
        if (last.commandSpec().userObject() instanceof CommandLine.HelpCommand && !last.unmatched().isEmpty()) {
            return helpOn(last);
        }
        return RUN.execute(parsed);
    }

    /** {@code fleet help VERB WORD...}: the help of the verb the words name, each a verb of the one before. */
    private static int helpOn(ParseResult help) {
        List<String> words = new ArrayList<>();
        help.matchedPositionals().forEach(positional -> words.add(String.valueOf((Object) positional.getValue())));
        words.addAll(help.unmatched());
        CommandLine verb = help.commandSpec().commandLine().getParent();
        for (int i = 0; i < words.size(); i++) {
            CommandLine next = verb.getSubcommands().get(words.get(i));
            if (next == null) {
                List<String> rest = words.subList(i, words.size());
                if (expectsVerb(verb)) {
                    throw new UnmatchedArgumentException(verb, List.copyOf(rest));
                }
                if (!verb.getCommandSpec().positionalParameters().isEmpty()) {
                    break; // the rest are the verb's own arguments, as in fleet completion bash --help
                }
                throw new ParameterException(verb, "'" + verb.getCommandSpec().qualifiedName() + "' takes no verb "
                        + "or argument after it, so no help on '" + String.join(" ", rest) + "'");
            }
            verb = next;
        }
        verb.usage(verb.getOut(), verb.getColorScheme());
        return ExitCodes.OK;
    }

    /** Whether the word after {@code command}'s options can only be one of its verbs ({@code fleet}, {@code fleet registry}). */
    private static boolean expectsVerb(CommandLine command) {
        return !command.getSubcommands().isEmpty() && command.getCommandSpec().positionalParameters().isEmpty();
    }
}
