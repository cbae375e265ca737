// A real MCP client on one of the official TypeScript SDKs, for fleet's shutdown tests
// (RealClientsShutdownIT, through NodeClient): it starts a server the way the SDK's own stdio
// transport does, uses it, then ends it with the SDK's own close() and exits.
//
//   node client.mjs SDK COMMAND_JSON
//
// SDK is sdk-1 (@modelcontextprotocol/sdk 1.x: Client + StdioClientTransport) or sdk-2
// (@modelcontextprotocol/client 2.x with versionNegotiation { mode: 'auto' }: before the session it
// starts a disposable copy of the server, sends it server/discover and disposes of it). COMMAND_JSON
// is the server's argv as a JSON array. The server's stderr is this process's (the SDKs' default), and
// its environment the SDKs' default one (HOME, LOGNAME, PATH, SHELL, TERM, USER).
//
// Prints one JSON line on stdout once close() has returned: the tools listed, the text of
// gitea_get_runtime_context's answer (and whether it was an error), and how long close() took.
// Any failure is one line on stderr and exit 1.
const [sdk, commandJson] = process.argv.slice(2);
const [command, ...args] = JSON.parse(commandJson ?? "[]");

async function connect() {
  const info = { name: "fleet-shutdown-test", version: "1.0.0" };
  if (sdk === "sdk-1") {
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
    const client = new Client(info);
    await client.connect(new StdioClientTransport({ command, args }));
    return client;
  }
  if (sdk === "sdk-2") {
    const { Client } = await import("@modelcontextprotocol/client");
    const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
    const client = new Client(info, { versionNegotiation: { mode: "auto" } });
    await client.connect(new StdioClientTransport({ command, args }));
    return client;
  }
  throw new Error(`unknown SDK '${sdk}': sdk-1 or sdk-2`);
}

try {
  if (!command) {
    throw new Error("usage: node client.mjs sdk-1|sdk-2 '[\"COMMAND\", \"ARG\", ...]'");
  }
  const client = await connect();
  const tools = (await client.listTools()).tools.map((tool) => tool.name);
  const context = await client.callTool({ name: "gitea_get_runtime_context", arguments: {} });
  const started = Date.now();
  await client.close();
  console.log(JSON.stringify({
    tools,
    context: context.content?.[0]?.text ?? "",
    context_is_error: context.isError === true,
    close_ms: Date.now() - started,
  }));
  process.exit(0);
} catch (error) {
  console.error(`client.mjs (${sdk}): ${error?.stack ?? error}`);
  process.exit(1);
}
