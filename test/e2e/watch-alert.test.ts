/**
 * A watch end to end, as a customer of `risk-scan sandbox` meets it, under the `ideal` and
 * `indexed-provider` RPC profiles: pay for a watch with the official x402 client, act with the
 * scenario's own key through the sandbox RPC (the mint authority mints as much again as the
 * supply), and receive at a local webhook the one delivery of that change — verified as `v1` by
 * the `standardwebhooks` package with the watch's secret and as `v1a` with the key the service
 * publishes — whose flags show the change; GET /watch/{id} lists it as delivered.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createSolanaRpc, type Rpc, type SolanaRpcApi } from '@solana/kit';
import { verifyWebhook } from '@solana-risk-scan/client/webhook';
import { Webhook } from 'standardwebhooks';
import { actorSigner } from '../../src/sandbox/actors/keypair-files.js';
import { performAction } from '../../src/sandbox/actors/transactions.js';
import {
  action,
  type ScenarioManifest,
  subject as subjectNamed,
} from '../../src/sandbox/scenarios/manifest.js';
import type { RunningSandbox } from '../../src/sandbox/start.js';
import { payingFetch, startCustomerSandbox } from '../helpers/customer-sandbox.js';
import { jsonOf } from '../helpers/service.js';

const SUBJECT = 'token:authorities-live';
const ACTION = 'mint';

interface Received {
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** A webhook on loopback that takes every POST with 204 and keeps it. */
async function startWebhook(): Promise<{
  url: string;
  received: Received[];
  next(): Promise<Received>;
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  let waiting: ((r: Received) => void) | null = null;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = {
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(entry);
      res.writeHead(204).end();
      waiting?.(entry);
      waiting = null;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    next: () =>
      new Promise((resolve) => {
        waiting = resolve;
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

for (const profile of ['ideal', 'indexed-provider'] as const) {
  describe(`a paid watch alerts on a real change (${profile})`, { timeout: 180_000 }, () => {
    let dir: string;
    let sandbox: RunningSandbox;
    let webhook: Awaited<ReturnType<typeof startWebhook>>;

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'watch-alert-'));
      webhook = await startWebhook();
      // The periodic check backs the subscription up; the change is caught by whichever comes first.
      sandbox = await startCustomerSandbox(dir, profile, { WATCH_RESCAN_INTERVAL_SECONDS: '5' });
    });
    after(async () => {
      await sandbox?.close();
      await webhook?.close();
      await rm(dir, { recursive: true, force: true });
    });

    it('pays, acts with the scenario key, and gets one verified delivery showing the change', async () => {
      const manifest = JSON.parse(readFileSync(sandbox.files.manifest, 'utf8')) as ScenarioManifest;
      const subject = subjectNamed(manifest, 'token', SUBJECT);
      const planned = action(manifest, SUBJECT, ACTION);
      const base = sandbox.api.url;
      const res = await (await payingFetch(sandbox))(`${base}/watch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'token', subject: subject.address, webhook: webhook.url, hours: 1 }),
      });
      const watch = await jsonOf(res);
      assert.equal(res.status, 200, JSON.stringify(watch));
      for (const flag of planned.before.flags) assert.ok(watch.baseline.flags.includes(flag), flag);

      const delivered = webhook.next();
      const actor = await actorSigner(planned.actor);
      const rpc = createSolanaRpc(sandbox.rpc.url) as unknown as Rpc<SolanaRpcApi>;
      await performAction(rpc, subject, planned, actor);
      const alert = await delivered;

      // v1: the standardwebhooks package, with the watch's own secret.
      const v1 = new Webhook(watch.signing.secret).verify(alert.body, alert.headers) as Record<string, any>;
      // v1a: the service's published key, found by the key_id the answer gave.
      const jwks = await jsonOf(await fetch(watch.signing.jwks_url));
      const key = jwks.keys.find((k: { kid: string }) => k.kid === watch.signing.key_id);
      assert.ok(key, 'the key_id is in the JWKS');
      const v1a = verifyWebhook(key, alert.headers, alert.body) as Record<string, any>;
      assert.deepEqual(v1a, v1);
      assert.throws(() =>
        verifyWebhook(key, alert.headers, alert.body.replace('watch.changed', 'watch.chnged')),
      );

      assert.equal(v1.type, 'watch.changed');
      assert.equal(v1.watch_id, watch.watch_id);
      assert.equal(v1.subject, subject.address);
      for (const flag of planned.change.flagsAdded) assert.ok(v1.changed.flagsAdded.includes(flag), flag);
      for (const flag of planned.after.flags) assert.ok(v1.after.flags.includes(flag), flag);
      assert.deepEqual(v1.before.flags, watch.baseline.flags);

      // One delivery per change: the state records it once, whichever trigger saw it first.
      const view = await jsonOf(await fetch(`${base}/watch/${watch.watch_id}`));
      assert.equal(view.deliveries.length, 1, JSON.stringify(view.deliveries));
      assert.equal(view.deliveries[0].webhook_id, alert.headers['webhook-id']);
      assert.deepEqual(view.latest.flags, v1.after.flags);
      // A periodic check after the change compares with the recorded verdict: nothing more is sent.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      assert.equal(webhook.received.length, 1);
      assert.equal((await jsonOf(await fetch(`${base}/watch/${watch.watch_id}`))).deliveries.length, 1);
    });
  });
}
