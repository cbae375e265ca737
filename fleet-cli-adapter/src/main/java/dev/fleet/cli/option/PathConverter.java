package dev.fleet.cli.option;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A path option's value. An empty one ({@code --registry=}, often an unset shell variable) is
 * refused: as a path it means the current directory, which is never what was meant.
 */
public final class PathConverter implements ITypeConverter<Path> {

    @Override
    public Path convert(String value) {
        if (value.isBlank()) {
            throw new TypeConversionException("an empty path is refused (an unset variable?)");
        }
        try {
            return Path.of(value);
        } catch (InvalidPathException e) {
            throw new TypeConversionException("not a usable path: " + e.getReason());
        }
    }
}
