/**
 * The verbs: one picocli {@code @Command} class for each ({@code assess}, {@code watch}, {@code wait},
 * {@code serve}, {@code registry migrate|list}, {@code processes}, {@code roster}, {@code demo},
 * {@code mcp-config}, {@code completion}), each wiring the adapters it needs, and what only verbs use:
 * the loops of {@code watch} and {@code wait}, serve's settings, the metrics answer, the atomic
 * {@code --output} file, the running jar and the build's version. {@link dev.fleet.cli.FleetCli}
 * registers the verbs, so nothing here names it: the packages stay free of cycles.
 */
package dev.fleet.cli.verb;
