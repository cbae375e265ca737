/**
 * The options several verbs share, as picocli mixins ({@code --format}, {@code --roster},
 * {@code --registry}, {@code --interval}), the converters that read option values and the values
 * shell completion offers. What an option means is decided here once; the verbs only ask it. A
 * verb's own option (serve's {@code --transport}, wait's {@code --for}) stays in the verb.
 */
package dev.fleet.cli.option;
