package dev.fleet.registry.sqlite;

import dev.fleet.domain.Failures;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * The cause of a failed file operation in words an operator can act on. The JDK's file exceptions
 * often carry only the path as their message (an {@link AccessDeniedException} says nothing but the
 * path), so the cause is named from the operating system's reason when there is one, else from the
 * exception's kind. Any other failure is {@link Failures#oneLine}.
 */
final class FileErrors {

    private FileErrors() {
    }

    static String describe(Exception error) {
        if (error instanceof FileSystemException fileError) {
            String cause = fileError.getReason() != null ? fileError.getReason() : kind(fileError);
            return fileError.getFile() == null ? cause : fileError.getFile() + ": " + cause;
        }
        return Failures.oneLine(error);
    }

    private static String kind(FileSystemException error) {
        if (error instanceof AccessDeniedException) {
            return "Permission denied";
        }
        if (error instanceof FileAlreadyExistsException) {
            return "exists and is not a directory";
        }
        if (error instanceof NoSuchFileException) {
            return "No such file or directory";
        }
        if (error instanceof NotDirectoryException) {
            return "Not a directory";
        }
        return "a file system error"; // never a Java class name
    }
}
