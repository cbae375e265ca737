/**
 * How the CLI ends: every exit code, with what it means to each verb, and the operator's error that
 * ends a verb with exit 2. Below the verbs and the options, which both use it, and apart from
 * {@link dev.fleet.cli.FleetCli}, which names the verbs: a package the verbs used and that named them
 * would be a cycle.
 */
package dev.fleet.cli.exit;
