#!/usr/bin/env node
// A real MCP client on the official TypeScript SDK 1.x, for fleet host's scenarios (HostScenariosIT,
// through HostClient): installed under the name gemini (a symbolic link, as npm installs a CLI), it
// reads Gemini CLI's configuration (~/.gemini/settings.json, mcpServers) and connects to every stdio
// server of it with the SDK's own Client and StdioClientTransport (initialize included).
//
//   gemini
//
// After each generation it prints one JSON line: {"generation": N, "servers": [{"name", "pid"}]}.
// Commands, one a line on stdin: "reload" connects to every server again, at least 1.5 s after the
// last start, and never closes the old connections (a reconnect that abandons the old generation);
// "exit" (or stdin's end) closes every connection with the SDK's close() and exits.
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const entries = Object.entries(
  JSON.parse(readFileSync(join(homedir(), ".gemini", "settings.json"), "utf8")).mcpServers ?? {});
const connections = [];
let generations = 0;
let lastStart = 0;

async function generation() {
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, lastStart + 1500 - Date.now())));
  const started = await Promise.all(entries.map(async ([name, entry]) => {
    const transport = new StdioClientTransport({ command: entry.command, args: entry.args ?? [] });
    const client = new Client({ name: "host-test", version: "1.0.0" });
    await client.connect(transport);
    connections.push(client);
    return { name, pid: transport.pid };
  }));
  lastStart = Date.now();
  console.log(JSON.stringify({ generation: ++generations, servers: started }));
}

async function exit() {
  await Promise.all(connections.map((client) => client.close()));
  process.exit(0);
}

try {
  await generation();
  const commands = createInterface({ input: process.stdin });
  commands.on("line", (line) => {
    if (line.trim() === "reload") {
      generation().catch((error) => console.error(`host-client.mjs: ${error?.stack ?? error}`));
    } else if (line.trim() === "exit") {
      exit();
    }
  });
  commands.on("close", exit);
} catch (error) {
  console.error(`host-client.mjs: ${error?.stack ?? error}`);
  process.exit(1);
}
