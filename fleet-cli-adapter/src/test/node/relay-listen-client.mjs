// The TypeScript SDK 2.4.0 client (@modelcontextprotocol/client) listening through a wrapping member, for
// fleet's RelayListenIT:
//
//   node relay-listen-client.mjs CONFIG.json   with {mode: "pin"|"auto", command: [...], env: {...}}
//
// Over the SDK's own stdio transport (a disposable era probe first) it connects, then waits for a line
// "listen" on stdin (the test lets the probe's member go first: its going is itself a change), opens one
// subscriptions/listen for fleet://verdict and the child's own note://modern-child, calls the child's
// touch_note, and prints every notifications/resources/updated it is sent, until a line "close" on stdin:
// then it closes the listen and the client and exits. Each step is one JSON-RPC notification line on
// stdout, for the Java test's one reader of a process's JSON lines; a failure is one line on stderr, exit 1.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const config = JSON.parse(readFileSync(process.argv[2], "utf8"));
const say = (step, fields) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", method: "step",
  params: { step, ...fields } }) + "\n");
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const awaitLine = async (expected) => {
  const { value, done } = await lines.next();
  if (done || value.trim() !== expected) throw new Error(`expected '${expected}' on stdin, got ${done ? "its end" : value}`);
};

try {
  const client = new Client({ name: "fleet-relay-listen-test", version: "1.0.0" },
    { versionNegotiation: { mode: config.mode === "pin" ? { pin: "2026-07-28" } : "auto" } });
  client.setNotificationHandler("notifications/resources/updated", (message) => say("updated", {
    uri: message.params.uri,
    subscriptionId: message.params._meta?.["io.modelcontextprotocol/subscriptionId"] ?? null,
  }));
  const [command, ...args] = config.command;
  await client.connect(new StdioClientTransport({ command, args, env: config.env, stderr: "ignore" }));
  say("connected", { era: client.getNegotiatedProtocolVersion() });

  await awaitLine("listen");
  const listen = await client.listen({ resourceSubscriptions: ["fleet://verdict", "note://modern-child"] });
  say("listening", { honored: listen.honoredFilter });
  const touched = await client.callTool({ name: "touch_note", arguments: {} });
  say("touched", { text: touched.content[0].text });

  await awaitLine("close");
  await listen.close();
  await client.close();
  say("closed", {});
  process.exit(0);
} catch (error) {
  console.error(`relay-listen-client.mjs (${config.mode}): ${error?.stack ?? error}`);
  process.exit(1);
}
