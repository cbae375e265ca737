package dev.fleet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fleet.cli.testing.FleetJar;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A mistyped verb or option, at every level, gets "did you mean" with the name it was most likely
 * meant to be, in the one usage line (exit 2). Two letters swapped are the commonest slip, and the
 * one picocli's suggestions alone missed ({@code dmeo}, {@code --fromat}, {@code registry lsit}).
 */
class SuggestionsIT {

    @ParameterizedTest(name = "fleet {0}")
    @CsvSource(delimiter = '|', textBlock = """
            dmeo                         | Unknown verb 'dmeo'; did you mean demo? (see 'fleet --help')
            asess                        | Unknown verb 'asess'; did you mean assess? (see 'fleet --help')
            wtach                        | Unknown verb 'wtach'; did you mean watch? (see 'fleet --help')
            wiat                         | Unknown verb 'wiat'; did you mean wait? (see 'fleet --help')
            dashbaord                    | Unknown verb 'dashbaord'; did you mean dashboard? (see 'fleet --help')
            sevre                        | Unknown verb 'sevre'; did you mean serve? (see 'fleet --help')
            regsitry                     | Unknown verb 'regsitry'; did you mean registry? (see 'fleet --help')
            proceses                     | Unknown verb 'proceses'; did you mean processes? (see 'fleet --help')
            rsoter                       | Unknown verb 'rsoter'; did you mean roster? (see 'fleet --help')
            mcp-cofnig                   | Unknown verb 'mcp-cofnig'; did you mean mcp-config? (see 'fleet --help')
            compeltion                   | Unknown verb 'compeltion'; did you mean completion? (see 'fleet --help')
            hlep                         | Unknown verb 'hlep'; did you mean help? (see 'fleet --help')
            registry lsit                | Unknown verb 'lsit'; did you mean list? (see 'fleet registry --help')
            registry mirgate             | Unknown verb 'mirgate'; did you mean migrate? (see 'fleet registry --help')
            help asess                   | Unknown verb 'asess'; did you mean assess? (see 'fleet --help')
            help regsitry                | Unknown verb 'regsitry'; did you mean registry? (see 'fleet --help')
            --verison                    | Unknown option: '--verison'; did you mean --version? (see 'fleet --help')
            assess --fromat json         | Unknown options: '--fromat', 'json'; did you mean --format? (see 'fleet assess --help')
            watch --intreval 1s          | Unknown options: '--intreval', '1s'; did you mean --interval? (see 'fleet watch --help')
            wait --for gate --timout 1s  | Unknown options: '--timout', '1s'; did you mean --timeout? (see 'fleet wait --help')
            dashboard --prot 8080        | Unknown options: '--prot', '8080'; did you mean --port? (see 'fleet dashboard --help')
            serve --profile p --hots 0   | Unknown option: '--hots'; did you mean --host? (see 'fleet serve --help')
            registry migrate --regstry r | Unknown options: '--regstry', 'r'; did you mean --registry? (see 'fleet registry migrate --help')
            registry list --wdie         | Unknown option: '--wdie'; did you mean --wide? (see 'fleet registry list --help')
            processes --fromat json      | Unknown options: '--fromat', 'json'; did you mean --format? (see 'fleet processes --help')
            roster --fromat json         | Unknown options: '--fromat', 'json'; did you mean --format? (see 'fleet roster --help')
            demo --hepl                  | Unknown option: '--hepl'; did you mean --help? (see 'fleet demo --help')
            mcp-config --sever-command c | Unknown options: '--sever-command', 'c'; did you mean --server-command? (see 'fleet mcp-config --help')
            completion --hepl bash       | Unknown option: '--hepl'; did you mean --help? (see 'fleet completion --help')
            """)
    void aMistypedVerbOrOptionGetsTheNameItWasMeantToBe(String command, String line) {
        assertUsageLine(command, line);
    }

    /** A word no name is near suggests only the names it begins, and a word unlike any name none. */
    @ParameterizedTest(name = "fleet {0}")
    @CsvSource(delimiter = '|', textBlock = """
            proc              | Unknown verb 'proc'; did you mean processes? (see 'fleet --help')
            dash              | Unknown verb 'dash'; did you mean dashboard? (see 'fleet --help')
            bogus             | Unknown verb 'bogus'. (see 'fleet --help')
            assess --regi x   | Unknown options: '--regi', 'x'; did you mean --registry? (see 'fleet assess --help')
            """)
    void anAbbreviationGetsTheNamesItBeginsAndAnUnlikeWordNone(String command, String line) {
        assertUsageLine(command, line);
    }

    /**
     * A mistyped required option leaves the real one missing: the mistyped one is named, with its
     * suggestion, rather than the one it was meant to be ("Missing required option: '--profile=NAME'").
     */
    @ParameterizedTest(name = "fleet {0}")
    @CsvSource(delimiter = '|', textBlock = """
            serve --profle prgs-author | Unknown option: '--profle'; did you mean --profile? (see 'fleet serve --help')
            wait --foor gate           | Unknown options: '--foor', 'gate'; did you mean --for? (see 'fleet wait --help')
            wait --timout 1s           | Unknown options: '--timout', '1s'; did you mean --timeout? (see 'fleet wait --help')
            """)
    void aMistypedOptionIsNamedBeforeTheRequiredOneItLeavesMissing(String command, String line) {
        assertUsageLine(command, line);
    }

    /** A word where an option was needed is no mistyped option: the missing one is what to say. */
    @Test
    void aStrayWordLeavesTheMissingRequiredOptionToBeNamed() {
        assertUsageLine("wait gate", "Missing required option: '--for=gate|change' (see 'fleet wait --help')");
    }

    private static void assertUsageLine(String command, String line) {
        FleetJar.Run run = FleetJar.run(command.split(" "));
        UsageIT.assertOneLineUsageError(run);
        assertEquals("fleet: " + line + "\n", run.stderr());
    }
}
