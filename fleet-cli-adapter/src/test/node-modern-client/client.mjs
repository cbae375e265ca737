// One TypeScript SDK 2.4.0 client of `fleet serve`, era by argument, and a 2025-era client of the same
// fleet beside it; each step is one JSON line on stdout, for the Java test to read.
// node client.mjs CONFIG.json  with {transport: "stdio"|"http", mode: "pin"|"auto", command: [...], env: {...},
// url: "...", waitForUpdateMs: N}
import { readFileSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
// Each line a JSON-RPC notification, so that the tests' one reader of a process's JSON lines reads it.
const say = (step, fields) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'step', params: { step, ...fields } }) + '\n');
const transport = () => config.transport === 'http'
  ? new StreamableHTTPClientTransport(new URL(config.url))
  : new StdioClientTransport({ command: config.command[0], args: config.command.slice(1), env: config.env,
      stderr: 'ignore' });
const connect = async (mode) => {
  const client = new Client({ name: `fleet-test-${JSON.stringify(mode)}`, version: '1.0.0' },
    { versionNegotiation: { mode } });
  await client.connect(transport());
  return client;
};
const assessed = async (client) => {
  const result = await client.callTool({ name: 'gitea_assess_fleet_inventory', arguments: {} });
  return result.content[0].text;
};
const digest = (text) => JSON.parse(text).verdict_digest;

const modern = await connect(config.mode === 'auto' ? 'auto' : { pin: '2026-07-28' });
say('connected', { era: modern.getNegotiatedProtocolVersion(), capabilities: modern.getServerCapabilities() });
say('tools', { names: (await modern.listTools()).tools.map((tool) => tool.name) });
const refused = await modern.callTool({ name: 'gitea_assess_fleet_inventory', arguments: { evidence: 1 } });
say('refused', { isError: refused.isError === true, text: refused.content[0].text });

const legacy = await connect('legacy');
say('legacy', { era: legacy.getNegotiatedProtocolVersion() });
// Both eras ask the same fleet. A stdio client's era probe is a member for up to a second, so the two
// answers are compared until they agree or ten rounds have passed: the test asserts on the last round.
let modernText; let legacyText;
for (let round = 0; round < 10; round++) {
  modernText = await assessed(modern);
  legacyText = await assessed(legacy);
  if (digest(modernText) === digest(legacyText)) break;
  await new Promise((resolve) => setTimeout(resolve, 500));
}
const read = (await modern.readResource({ uri: 'fleet://verdict' })).contents[0].text;
say('assessed', { modern: digest(modernText), legacy: digest(legacyText), read: digest(read) });

let updated = null;
const gotUpdate = new Promise((resolve) => {
  modern.setNotificationHandler('notifications/resources/updated', (message) => {
    updated = message.params.uri;
    resolve();
  });
});
const listen = await modern.listen({ resourceSubscriptions: ['fleet://verdict', 'fleet://nothing'] });
say('listening', { honored: listen.honoredFilter });
let timer;
await Promise.race([gotUpdate, new Promise((resolve) => { timer = setTimeout(resolve, config.waitForUpdateMs); })]);
clearTimeout(timer); // a pending timer would keep node running after the last step
say(updated === null ? 'no-update' : 'updated', { uri: updated });
await listen.close();
// The 2025 client leaves last: its member going is itself a change, which the listen must not take for the kill.
await legacy.close();
await modern.close();
say('closed', {});
