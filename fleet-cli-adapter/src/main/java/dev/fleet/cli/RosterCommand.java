package dev.fleet.cli;

import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code fleet roster}: the effective roster, after validation. */
@Command(name = "roster", mixinStandardHelpOptions = true,
        description = "Print the effective roster: members, binding and server process patterns.")
final class RosterCommand implements Callable<Integer> {

    @Mixin
    private RosterOption rosterOption;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        Roster roster = rosterOption.roster();
        PrintWriter out = spec.commandLine().getOut();
        out.printf("binding  remote=%s org=%s repo=%s%n", roster.binding().remote(), roster.binding().org(),
                roster.binding().repo());
        Table table = new Table("NAMESPACE", "PROFILE", "ROLE");
        for (RosterMember member : roster.members()) {
            table.row(member.namespace(), member.profile(), member.role());
        }
        out.print(table.render());
        out.println("server process patterns:");
        roster.serverProcessPatterns().forEach(pattern -> out.println("  " + pattern));
        return FleetCli.GATE_SATISFIED;
    }
}
