// The TypeScript SDK 2.4.0 client (@modelcontextprotocol/client) against a wrapping member, for fleet's
// relay tests of both eras (RelayBothErasIT, through NodeClient):
//
//   node both-eras-client.mjs MODE CHILD_TOOL COMMAND_JSON
//
// MODE is pin (versionNegotiation { mode: { pin: '2026-07-28' } }: no fallback) or auto. Over the SDK's
// own stdio transport (a disposable probe copy of the member first), it lists the tools, calls
// CHILD_TOOL and gitea_assess_fleet_inventory, reads fleet://verdict, closes, and prints one JSON line
// on stdout: the era, the tools, both calls' texts, the verdict's digest as read. Where the child has
// confirm_modern, it calls that too: the child's input_required result is fulfilled by this client's
// elicitation handler (it accepts, {confirm: true}) and the call retried, all inside callTool; the line
// then also says how often the handler was asked and the retried call's text. A failure to connect
// is printed as {"connect_error": "..."} (a pinned client has no fallback); any other is one line on
// stderr and exit 1.
const [mode, childTool, commandJson] = process.argv.slice(2);
const [command, ...args] = JSON.parse(commandJson ?? "[]");
const { Client } = await import("@modelcontextprotocol/client");
const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");

try {
  const client = new Client({ name: "fleet-both-eras-test", version: "1.0.0" },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: mode === "pin" ? { pin: "2026-07-28" } : "auto" } });
  let elicited = 0;
  client.setRequestHandler("elicitation/create", async () => {
    elicited++;
    return { action: "accept", content: { confirm: true } };
  });
  try {
    await client.connect(new StdioClientTransport({ command, args }));
  } catch (error) {
    await client.close().catch(() => {});
    console.log(JSON.stringify({ connect_error: String(error?.message ?? error) }));
    process.exit(0);
  }
  const era = client.getNegotiatedProtocolVersion();
  const tools = [];
  let cursor;
  do { // every page: the fleet's tools are on the last
    const page = await client.listTools(cursor === undefined ? undefined : { cursor });
    tools.push(...page.tools.map((tool) => tool.name));
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  const child = await client.callTool({ name: childTool, arguments: {} });
  const confirmed = tools.includes("confirm_modern")
    ? (await client.callTool({ name: "confirm_modern", arguments: {} })).content?.[0]?.text ?? "" : null;
  // The era probe's member is a second member for up to a second: the tool's verdict and the resource's
  // are compared until they agree or ten rounds have passed; the test asserts on the last round.
  let assessed; let read;
  for (let round = 0; round < 10; round++) {
    const call = await client.callTool({ name: "gitea_assess_fleet_inventory", arguments: {} });
    assessed = { digest: JSON.parse(call.content[0].text).verdict_digest, isError: call.isError === true };
    read = JSON.parse((await client.readResource({ uri: "fleet://verdict" })).contents[0].text).verdict_digest;
    if (assessed.digest === read) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await client.close();
  console.log(JSON.stringify({
    era,
    tools,
    child: child.content?.[0]?.text ?? "",
    confirmed,
    elicited,
    assessed_digest: assessed.digest,
    assessed_is_error: assessed.isError,
    read_digest: read,
  }));
  process.exit(0);
} catch (error) {
  console.error(`both-eras-client.mjs (${mode}): ${error?.stack ?? error}`);
  process.exit(1);
}
