/**
 * Receiving wvr's webhooks: a small HTTP receiver that verifies each delivery with the SDK's
 * `verifyWebhook` before trusting it, fed by a monitoring workflow on a local server. Run with
 * `pnpm tsx examples/webhook-receiver.ts`.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '@wvr/engine';
import { startServer } from '@wvr/server';
import { createClient, verifyWebhook } from '@wvr/sdk';

const read = async (req: IncomingMessage) => {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  return body;
};

let secret = '';
const received: string[] = [];
const receiver = createServer(async (req, res) => {
  // Verify the raw body: re-serialised JSON would not match the signature.
  const body = await read(req);
  const verdict = await verifyWebhook({
    secret,
    body,
    headers: {
      'webhook-id': req.headers['webhook-id'] as string | undefined,
      'webhook-timestamp': req.headers['webhook-timestamp'] as string | undefined,
      'webhook-signature': req.headers['webhook-signature'] as string | undefined,
    },
  });
  if (!verdict.ok) {
    console.log(`refused a delivery: ${verdict.reason}`);
    res.writeHead(401).end();
    return;
  }
  const event = JSON.parse(body) as { id: string; type: string };
  received.push(event.type);
  console.log(`verified ${event.type} (${event.id})`);
  // Answer 2xx quickly; anything else makes wvr retry with backoff, with the same webhook-id.
  res.writeHead(204).end();
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/wvr`;

// The receiver is on loopback, so this example's engine may deliver to private addresses.
const engine = createEngine({ dataDir: mkdtempSync(join(tmpdir(), 'wvr-webhooks-')), allowPrivateNetwork: true });
const server = await startServer({ engine, port: 0, worker: false });
try {
  const owner = await engine.accounts.ensureUser({ email: 'hooks@example.com' });
  const wvr = createClient({ baseUrl: server.url, token: (await engine.tokens.issue(owner.id, { name: 'example' })).token });

  secret = (await wvr.webhooks.rotateSecret()).secret;
  console.log(`signing secret: ${secret.slice(0, 10)}… (shown once; keep it with the receiver)`);

  const { workflow } = await wvr.workflows.create({
    name: 'Release notes watch',
    workflow_type: 'search',
    operation_config: { query: 'release notes' },
    interval: '1 day',
    notification_config: { webhook_url: receiverUrl },
  });
  await wvr.workflows.execute(workflow!.id);
  // A running server's worker sends the outbox every few seconds; here, once, now.
  await engine.notify.deliverDue();
  console.log(`received and verified: ${received.join(', ') || 'nothing'}`);
} finally {
  await server.close();
  await engine.close();
  receiver.close();
}
