/**
 * Two instances of the service on one real redis-server and one sandbox chain, as a deployment
 * behind a load balancer runs them: each its own HTTP server, triggers (its own WebSocket
 * subscriptions), BullMQ worker and Redis connections. A watch paid through A with the official
 * x402 client is followed by B too (told through Redis, not at its periodic check, which is set
 * a day away here); a change made with the scenario's key is seen and re-assessed by both, and
 * delivered once; B serves A's watch and its log; and with A stopped while a delivery waits for
 * a webhook that is down, B delivers it when the webhook is back, with the same webhook-id, once.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { verifyWebhook } from '@solana-risk-scan/client/webhook';
import { pino } from 'pino';
import { parseConfig } from '../../src/config.js';
import {
  action,
  type ScenarioManifest,
  subject as subjectNamed,
} from '../../src/sandbox/scenarios/manifest.js';
import type { RunningSandbox } from '../../src/sandbox/start.js';
import { SCANNERS } from '../../src/scans/registry.js';
import { createService, selling } from '../../src/service/index.js';
import { payingFetch, startCustomerSandbox } from '../helpers/customer-sandbox.js';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';
import { jsonOf } from '../helpers/service.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { act as actWith, sandboxRpc } from '../watch/triggers/helpers.js';

type LogLine = Record<string, unknown>;

interface Instance {
  readonly name: string;
  readonly url: string;
  /** Every line the instance logged, parsed. */
  readonly lines: LogLine[];
  stop(): Promise<void>;
}

/** Polls `read` until it gives something other than undefined (the test's timeout bounds it). */
async function until<T>(read: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('two instances on one Redis: a watch followed by both, each change delivered once', {
  timeout: 240_000,
}, () => {
  let dir: string;
  let redis: RedisServer;
  let webhook: WebhookReceiver;
  let sandbox: RunningSandbox;
  let manifest: ScenarioManifest;
  let a: Instance;
  let b: Instance;
  let pay: typeof fetch;

  /** One service instance against the sandbox's chain, RPC, WebSocket and facilitators, state in Redis. */
  async function startInstance(name: string): Promise<Instance> {
    const lines: LogLine[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const config = parseConfig({
      RISK_SCAN_MODE: 'sandbox',
      PAY_TO: sandbox.payTo,
      PORT: '0',
      HOST: '127.0.0.1',
      SOLANA_RPC_URL: sandbox.rpc.url,
      SOLANA_WS_URL: sandbox.rpc.wsUrl,
      FACILITATOR_URLS: sandbox.facilitators.map((f) => f.url).join(','),
      REDIS_URL: redis.url,
      STATE_DIR: join(dir, name),
      // A day: the periodic check is not what makes an instance follow a watch bought elsewhere.
      WATCH_RESCAN_INTERVAL_SECONDS: '86400',
    });
    const service = await createService(config, { log, mode: selling(SCANNERS) });
    await service.start();
    const server = await service.listen();
    let stopped: Promise<void> | undefined;
    return {
      name,
      url: server.url,
      lines,
      stop: () => {
        stopped ??= server.close().then(() => service.stop());
        return stopped;
      },
    };
  }

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'watch-two-'));
    redis = await startRedis();
    webhook = await startWebhookReceiver();
    sandbox = await startCustomerSandbox(join(dir, 'sandbox'), 'ideal');
    manifest = JSON.parse(readFileSync(sandbox.files.manifest, 'utf8')) as ScenarioManifest;
    [a, b] = [await startInstance('a'), await startInstance('b')];
    pay = await payingFetch(sandbox);
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await sandbox?.close();
    await webhook?.close();
    await redis?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const healthOf = async (i: Instance) => jsonOf(await fetch(`${i.url}/health`));
  const viewOn = async (i: Instance, id: string) => jsonOf(await fetch(`${i.url}/watch/${id}`));

  /** Pays for a watch through `on` with the official client; its 200 answer. */
  async function buyWatch(on: Instance, kind: 'token' | 'program', name: string, path: string) {
    const res = await pay(`${on.url}/watch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        kind,
        subject: subjectNamed(manifest, kind, name).address,
        webhook: webhook.url(path),
        hours: 1,
      }),
    });
    const answer = await jsonOf(res);
    assert.equal(res.status, 200, JSON.stringify(answer));
    return answer;
  }

  /** Waits until both instances follow `subjects` subjects, on as many open subscriptions. */
  async function bothFollow(subjects: number) {
    await until(async () => {
      const [fa, fb] = await Promise.all(
        [a, b].map(async (i) => (await healthOf(i)).checks.watches.following),
      );
      const same =
        fa.subjects === subjects && fb.subjects === subjects && fa.subscriptions === fb.subscriptions;
      return same && fa.subscriptions > 0 ? true : undefined;
    });
  }

  /** Acts on the scenario subject `name` with its actor's key, through the sandbox RPC. */
  async function act(name: string, what: string) {
    const planned = action(manifest, name, what);
    await actWith(sandboxRpc(sandbox.rpc.url), manifest, name, planned);
    return planned;
  }

  /**
   * Each instance's decision on the watch's change from `version`: one recorded it (its
   * webhook-id), the other found it recorded. Waits until both re-assessed the subject.
   */
  async function decisions(watchId: string, version: number) {
    const decisionOf = (i: Instance) =>
      i.lines.filter(
        (l) => l.watch === watchId && l.version === version && String(l.msg).startsWith('watch change'),
      );
    const [ofA, ofB] = await until(() => {
      const both = [decisionOf(a), decisionOf(b)];
      return both.every((d) => d.length > 0) ? both : undefined;
    });
    const recorded = [...ofA!, ...ofB!].filter((l) => l.webhookId !== null);
    assert.equal(recorded.length, 1, `one instance records the change: ${JSON.stringify([ofA, ofB])}`);
    return recorded[0]!.webhookId as string;
  }

  const deliveredOn = (path: string, webhookId: string) =>
    webhook.on(path).filter((r) => r.headers['webhook-id'] === webhookId && r.status === 200);

  let watch: Record<string, any>;

  it('a watch paid through A is followed by B; each change both see is delivered once, verified', async () => {
    watch = await buyWatch(a, 'token', 'token:authorities-live', '/hook');
    await bothFollow(1);
    const jwks = await jsonOf(await fetch(`${b.url}/.well-known/jwks.json`));
    const key = jwks.keys.find((k: { kid: string }) => k.kid === watch.signing.key_id);
    assert.ok(key, 'B publishes the key A named');

    const seen: string[] = [];
    // A watch starts at version 0; each change recorded moves it one on.
    for (const [version, what] of ['mint', 'freeze'].entries()) {
      const planned = await act('token:authorities-live', what);
      const webhookId = await decisions(watch.watch_id, version);
      const [delivery] = await until(() => {
        const got = deliveredOn('/hook', webhookId);
        return got.length > 0 ? got : undefined;
      });
      const alert = verifyWebhook(key, delivery!.headers, delivery!.body) as Record<string, any>;
      for (const flag of planned.change.flagsAdded) assert.ok(alert.changed.flagsAdded.includes(flag), flag);
      seen.push(webhookId);
      // Every request the webhook got is one delivery of one change, each sent once.
      assert.deepEqual(
        webhook.on('/hook').map((r) => r.headers['webhook-id']),
        seen,
      );
    }
  });

  it('GET /watch/{id} on B shows the watch bought through A and its deliveries', async () => {
    // The log says delivered once the sender has the webhook's answer: a moment after the webhook.
    const view = await until(async () => {
      const v = await viewOn(b, watch.watch_id);
      return v.deliveries.every((d: { state: string }) => d.state === 'delivered') ? v : undefined;
    });
    assert.equal(view.status, 'active');
    assert.deepEqual(
      view.deliveries.map((d: { webhook_id: string; state: string }) => [d.webhook_id, d.state]),
      webhook
        .on('/hook')
        .map((r) => [r.headers['webhook-id'], 'delivered'])
        .reverse(),
    );
  });

  it('with A stopped while a delivery waits for a down webhook, B delivers it when back, once', async () => {
    webhook.down = true;
    const program = await buyWatch(a, 'program', 'program:single-key', '/down');
    await bothFollow(2);
    await act('program:single-key', 'upgrade');
    const webhookId = await decisions(program.watch_id, 0);
    await until(() => (webhook.on('/down').length > 0 ? true : undefined));
    await a.stop();
    webhook.down = false;
    const [delivered] = await until(() => {
      const got = deliveredOn('/down', webhookId);
      return got.length > 0 ? got : undefined;
    });
    assert.ok(delivered);
    const view = await until(async () => {
      const v = await viewOn(b, program.watch_id);
      return v.deliveries[0]?.state === 'delivered' ? v : undefined;
    });
    const tries = webhook.on('/down');
    assert.ok(tries.length >= 2, 'refused at least once while down');
    assert.ok(
      tries.every((r) => r.headers['webhook-id'] === webhookId),
      'the same webhook-id on every try',
    );
    assert.equal(tries.filter((r) => r.status === 200).length, 1, 'delivered once');
    assert.equal(view.deliveries.length, 1);
    assert.equal(view.deliveries[0].attempts, tries.length);
  });
});
