// The TypeScript SDK 2.4.0 client, pinned to 2026-07-28, cancelling listens on `fleet serve --transport
// http` (ModernHttpCancelIT). Each step is one JSON-RPC notification line on stdout, for the Java test.
// node cancel-client.mjs CONFIG.json  with {url: "...", waitForUpdateMs: N}
//
// The SDK sends a listen's notifications/cancelled when the listen is closed and drops whatever the
// server answers to it, so the transport's fetch is wrapped to keep each POST's method and HTTP status.
import { readFileSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const say = (step, fields) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'step', params: { step, ...fields } }) + '\n');
const posts = [];
const observing = async (input, init) => {
  const response = await fetch(input, init);
  if ((init?.method ?? 'GET') === 'POST' && typeof init.body === 'string') {
    posts.push({ method: JSON.parse(init.body).method ?? 'response', status: response.status });
  }
  return response;
};
const statuses = (method) => posts.filter((post) => post.method === method).map((post) => post.status);

const client = new Client({ name: 'fleet-cancel-test', version: '1.0.0' },
  { versionNegotiation: { mode: { pin: '2026-07-28' } } });
await client.connect(new StreamableHTTPClientTransport(new URL(config.url), { fetch: observing }));
say('connected', { era: client.getNegotiatedProtocolVersion() });

const first = await client.listen({ resourceSubscriptions: ['fleet://verdict'] });
say('listening', { honored: first.honoredFilter });
await first.close(); // notifications/cancelled, answered before close() returns
say('cancelled', { cancelled: statuses('notifications/cancelled'), listens: statuses('subscriptions/listen') });

const call = await client.callTool({ name: 'gitea_assess_fleet_inventory', arguments: {} });
say('assessed', { isError: call.isError === true, digest: JSON.parse(call.content[0].text).verdict_digest });

let updated = null;
const gotUpdate = new Promise((resolve) => {
  client.setNotificationHandler('notifications/resources/updated', (message) => {
    updated = message.params.uri;
    resolve();
  });
});
const second = await client.listen({ resourceSubscriptions: ['fleet://verdict'] });
say('listening', { honored: second.honoredFilter });
let timer;
await Promise.race([gotUpdate, new Promise((resolve) => { timer = setTimeout(resolve, config.waitForUpdateMs); })]);
clearTimeout(timer); // a pending timer would keep node running after the last step
say(updated === null ? 'no-update' : 'updated', { uri: updated });
await second.close();
say('cancelled', { cancelled: statuses('notifications/cancelled'), listens: statuses('subscriptions/listen') });
await client.close();
say('closed', {});
