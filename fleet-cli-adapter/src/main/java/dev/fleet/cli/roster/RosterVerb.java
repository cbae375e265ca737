package dev.fleet.cli.roster;

import dev.fleet.cli.option.FormatOption;
import dev.fleet.cli.option.RosterOption;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;

/**
 * The options of the verbs that answer about the roster's fleet, as text or as JSON: {@code --format}
 * and {@code --roster}, declared here once rather than in each verb ({@code processes}, {@code roster}).
 * ({@code assess} answers in two more formats, metrics, so it declares its own {@code --format}.)
 */
abstract class RosterVerb implements Callable<Integer> {

    @Mixin
    FormatOption format;

    @Mixin
    RosterOption roster;
}
