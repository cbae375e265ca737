package dev.fleet.observer;

import dev.fleet.domain.ListingReason;
import dev.fleet.domain.ObservedProcess;
import dev.fleet.domain.ProcessObservation;
import dev.fleet.domain.SecretMask;
import dev.fleet.domain.verdict.OutsideText;
import dev.fleet.domain.port.out.ProcessObserver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Any other platform: observes through {@link ProcessHandle#allProcesses()}. Note the JDK builds
 * {@code commandLine()} from the executable's path plus the arguments, so a process that renamed
 * its {@code argv[0]} is seen under its executable's name here. Patterns are matched against that line;
 * what is kept has its secrets masked ({@link SecretMask}). Reads only; sends no signal.
 */
public final class ProcessHandleObserver implements ProcessObserver {

    private final Path procRoot = Path.of("/proc");

    /**
     * @throws InvalidServerPatternException for a pattern RE2J cannot compile, before anything is
     *     read (a roster loader checks its patterns with {@link ServerPatterns#compile} up front)
     */
    @Override
    public ProcessObservation observe(List<String> serverProcessPatterns, Set<Long> registeredPids,
            boolean ancestors) {
        ServerPatterns patterns = ServerPatterns.compile(Objects.requireNonNull(serverProcessPatterns, "patterns"));
        Objects.requireNonNull(registeredPids, "registeredPids");
        HostFacts host = HostFacts.read(procRoot);
        long ownPid = ProcessHandle.current().pid();
        List<ObservedProcess> found = new ArrayList<>();
        boolean sawSelf = false;
        try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
            for (ProcessHandle handle : (Iterable<ProcessHandle>) all::iterator) {
                sawSelf |= handle.pid() == ownPid;
                ObservedProcess process = inspect(handle, patterns, registeredPids.contains(handle.pid()));
                if (process != null) {
                    found.add(process);
                }
            }
        } catch (UnsupportedOperationException e) {
            return ProcessObservation.unavailable(ListingReason.UNSUPPORTED_PLATFORM, host.bootId(), host.hostname(), host.pidNamespace());
        } catch (SecurityException e) {
            return ProcessObservation.unavailable(ListingReason.PERMISSION_DENIED, host.bootId(), host.hostname(), host.pidNamespace());
        }
        if (!sawSelf) {
            // The JDK answers an empty stream where it cannot list (Linux without /proc, say):
            // a table that lacks the answering process itself is not the table.
            return ProcessObservation.unavailable(ListingReason.IO_ERROR, host.bootId(), host.hostname(), host.pidNamespace());
        }
        if (ancestors) {
            found.addAll(Ancestors.of(found, pid -> ProcessHandle.of(pid)
                    .map(handle -> inspect(handle, patterns, true)).orElse(null)));
        }
        found.sort(Comparator.comparingLong(ObservedProcess::pid));
        return ProcessObservation.of(host.bootId(), host.hostname(), host.pidNamespace(), found);
    }

    private static ObservedProcess inspect(ProcessHandle handle, ServerPatterns patterns, boolean registered) {
        ProcessHandle.Info info = handle.info();
        String commandLine = info.commandLine().orElse("");
        boolean matchesServer = !commandLine.isEmpty() && patterns.matches(commandLine);
        if (!matchesServer && !registered) {
            return null;
        }
        return new ObservedProcess(handle.pid(), info.startInstant().orElse(null), masked(info, commandLine),
                info.user().orElse(null), matchesServer, handle.parent().map(ProcessHandle::pid).orElse(null));
    }

    /**
     * The command line kept and shown, its secrets masked: argument by argument where the JDK gives them apart
     * (so a value holding spaces is hidden whole), else as the joined line it is; then capped, as a verdict caps it.
     */
    private static String masked(ProcessHandle.Info info, String commandLine) {
        Optional<String[]> arguments = info.arguments();
        Optional<String> command = info.command();
        if (command.isEmpty() || arguments.isEmpty()) {
            return OutsideText.cap(SecretMask.commandLine(commandLine));
        }
        List<String> argv = new ArrayList<>(List.of(command.get()));
        argv.addAll(Arrays.asList(arguments.get()));
        return OutsideText.cap(SecretMask.argv(argv));
    }
}
