package dev.fleet.cli.option;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A path option's value. An empty one ({@code --registry=}, often an unset shell variable) is
 * refused: as a path it means the current directory, which is never what was meant. So is one that
 * holds U+FFFD: that is how Java reads bytes of an argument that are not text in the locale's
 * charset, so it would open another file than the one named (and two names that differ only there
 * would open the same one).
 */
public final class PathConverter implements ITypeConverter<Path> {

    /** What a byte that is not text in the locale's charset was read as. */
    private static final char NOT_TEXT = '\uFFFD';

    @Override
    public Path convert(String value) {
        if (value.isBlank()) {
            throw new TypeConversionException("an empty path is refused (an unset variable?)");
        }
        if (value.indexOf(NOT_TEXT) >= 0) {
            throw new TypeConversionException("not a usable path: it holds bytes that are not text in this locale's "
                    + "charset, so another file would be opened; rename it, or run with a UTF-8 locale");
        }
        try {
            return Path.of(value);
        } catch (InvalidPathException e) {
            throw new TypeConversionException("not a usable path: " + e.getReason());
        }
    }
}
