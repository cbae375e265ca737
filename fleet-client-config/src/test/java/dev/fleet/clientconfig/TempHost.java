package dev.fleet.clientconfig;

import dev.fleet.domain.host.ConfiguredServer;
import dev.fleet.domain.port.out.ClientConfigurations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A user's host in a temporary directory: a HOME with real configuration files, a project directory
 * and a PATH of one directory holding real executable scripts (which are never run: only read).
 */
final class TempHost {

    final Path home;
    final Path project;
    final Path bin;

    TempHost(Path root) {
        this.home = root.resolve("home");
        this.project = root.resolve("work/project");
        this.bin = root.resolve("bin");
        try {
            Files.createDirectories(home);
            Files.createDirectories(project);
            Files.createDirectories(bin);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes {@code text} to {@code file} (directories made as needed) and gives the file. */
    Path write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Path inHome(String relative, String text) {
        return write(home.resolve(relative), text);
    }

    Path inProject(String relative, String text) {
        return write(project.resolve(relative), text);
    }

    /** An executable file on the PATH directory with this content. */
    Path executable(String name, String text) {
        Path file = write(bin.resolve(name), text);
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /** HOME and PATH only: XDG_CONFIG_HOME defaults to HOME/.config. */
    Map<String, String> environment() {
        return Map.of("HOME", home.toString(), "PATH", bin.toString());
    }

    ClientConfigurations.Read read(Path... extraFiles) {
        return new ClientConfigFiles(environment()).read(List.of(extraFiles), project);
    }

    static Optional<ConfiguredServer> named(ClientConfigurations.Read read, String name) {
        return read.servers().stream().filter(server -> server.name().equals(name)).findFirst();
    }

    static ConfiguredServer only(ClientConfigurations.Read read, String name) {
        return named(read, name).orElseThrow(() -> new AssertionError("no server " + name + " in " + read));
    }
}
