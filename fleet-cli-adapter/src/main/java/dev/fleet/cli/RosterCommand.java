package dev.fleet.cli;

import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code fleet roster}: the effective roster, after validation. */
@Command(name = "roster",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:shown", "2:invalid roster file (one line on stderr)", ExitCodes.INTERNAL_LINE},
        description = "Print the effective roster: members, binding and server process patterns.")
final class RosterCommand extends FleetVerb implements Callable<Integer> {

    @Mixin
    private RosterOption roster;

    @Override
    public Integer call() {
        Roster effective = roster.roster();
        PrintWriter out = out();
        out.printf("binding  remote=%s org=%s repo=%s%n", effective.binding().remote(), effective.binding().org(),
                effective.binding().repo());
        Table table = new Table("NAMESPACE", "PROFILE", "ROLE");
        for (RosterMember member : effective.members()) {
            table.row(member.namespace(), member.profile(), member.role());
        }
        out.print(table.render());
        out.println("server process patterns:");
        effective.serverProcessPatterns().forEach(pattern -> out.println("  " + pattern));
        return ExitCodes.OK;
    }
}
