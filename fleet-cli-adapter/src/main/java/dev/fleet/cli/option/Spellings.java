package dev.fleet.cli.option;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.TypeConversionException;

/**
 * Enum values as the help, the docs and completion spell them ({@code json}, {@code mcp-json}: lower case, {@code _}
 * written {@code -}), in any case, and as declared. picocli's own refusal listed the declared constants ({@code
 * expected one of [GATE, CHANGE]}), which read as the only spelling beside a help that says {@code gate|change}.
 */
public final class Spellings<E extends Enum<E>> implements ITypeConverter<E> {

    private final Class<E> type;

    private Spellings(Class<E> type) {
        this.type = type;
    }

    /** Gives every enum-typed option and parameter of {@code cli} and its subcommands these spellings. */
    public static CommandLine everywhere(CommandLine cli) {
        Set<Class<?>> types = new LinkedHashSet<>();
        collect(cli, types);
        types.forEach(type -> register(cli, type));
        return cli;
    }

    /** How {@code constant} is written: lower case, {@code _} as {@code -}. */
    public static String of(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    @Override
    public E convert(String value) {
        for (E constant : type.getEnumConstants()) {
            if (of(constant).equalsIgnoreCase(value) || constant.name().equalsIgnoreCase(value)) {
                return constant;
            }
        }
        List<String> spelled = Arrays.stream(type.getEnumConstants()).map(Spellings::of).toList();
        throw new TypeConversionException("expected one of " + spelled + " but was '" + value + "'");
    }

    private static void collect(CommandLine cli, Set<Class<?>> types) {
        for (ArgSpec arg : cli.getCommandSpec().args()) {
            if (arg.type().isEnum() && arg.converters().length == 0) {
                types.add(arg.type());
            }
        }
        cli.getSubcommands().values().forEach(sub -> collect(sub, types));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void register(CommandLine cli, Class<?> type) {
        cli.registerConverter((Class) type, new Spellings(type));
    }
}
