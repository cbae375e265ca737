package dev.fleet.cli.load;

/**
 * A phase of the load-and-fault suite ({@link LoadAndFaultIT}): it works on the one {@link LoadRun}
 * every phase shares, and adds what it finds to the run's {@link LoadFindings}.
 */
abstract class LoadPhase {

    final LoadRun run;
    final LoadFindings found;

    LoadPhase(LoadRun run) {
        this.run = run;
        this.found = run.found;
    }
}
