/**
 * The behaviour every WatchState must have, run against each backend (memory, embedded, Redis)
 * by its own test file, with a real local HTTP server as the webhook. Expiry is tested by moving the
 * clock the state is given; retries wait on an injected schedule of a few ms, never on time.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, afterEach, before, describe, it } from 'node:test';
import { verifyWebhook } from '@solana-risk-scan/client/webhook';
import { Webhook } from 'standardwebhooks';
import type { ScanResult } from '../../src/contract/schemas.js';
import { generateKeyPem, signingKeyFromPem } from '../../src/signing/key.js';
import { jwks } from '../../src/signing/signature.js';
import type { WatchStateOptions } from '../../src/state/watches/store.js';
import type { AlertPayload, DeliveryRecord, Watch, WatchState } from '../../src/watch/model.js';
import { type ReceivedDelivery, startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

export interface WatchBackend {
  /** A new, empty state (its own namespace or directory). */
  open(options: WatchStateOptions): Promise<WatchState>;
  /**
   * Closes `state` and opens the same store again, as a restarted process would; absent when the
   * backend ends with its process (memory), whose restart cases are then marked skipped by name.
   */
  reopen?(state: WatchState, options: WatchStateOptions): Promise<WatchState>;
  /** Another instance on the same store as `state`; absent when the backend is one process's. */
  another?(state: WatchState, options: WatchStateOptions): Promise<WatchState>;
  /**
   * Fault injection: writes each raw text as a pending delivery of watch `watchId` (in its log
   * too), as a damaged store or an incompatible version would leave it, and gives the store
   * opened again (`state` closed) with `options`, as a restart finds it.
   */
  corrupt?(
    state: WatchState,
    options: WatchStateOptions,
    watchId: string,
    records: readonly RawDelivery[],
  ): Promise<WatchState>;
  /** Whether the store of `state` still has `webhookId` pending. */
  isPending?(state: WatchState, webhookId: string): Promise<boolean>;
}

/** A delivery record as raw text, as the store would hold it. */
export interface RawDelivery {
  readonly webhookId: string;
  readonly raw: string;
}

const HOUR = 3_600_000;
const signingKey = signingKeyFromPem(generateKeyPem());
const publishedKeys = JSON.parse(JSON.stringify(jwks([signingKey.publicJwk])));

export const scanResult = (risk: number, flags: string[]): ScanResult => ({
  risk_score: risk,
  flags,
  confidence: 0.9,
  summary: `risk ${risk}`,
  recommendation: risk > 0.5 ? 'avoid' : 'ok',
  reasoning: flags.map((f) => `${f} is set`),
});

/** Resolves once `condition` holds; the deadline only bounds a failing test. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The case applies to a store that outlives its process only: said in the report, not left out silently. */
const durableOnly = (backend: WatchBackend) =>
  backend.reopen === undefined ? { skip: 'a restart case: this backend ends with its process' } : {};

/** `backend.reopen`, for the cases that durableOnly marks. */
const reopen = (backend: WatchBackend) => backend.reopen as NonNullable<WatchBackend['reopen']>;

/** What each group of contract tests uses. */
export interface WatchCtx {
  readonly backend: WatchBackend;
  readonly clock: { offset: number };
  receiver(): WebhookReceiver;
  base(): WatchStateOptions;
  open(options?: Partial<WatchStateOptions>): Promise<WatchState>;
  track(state: WatchState): WatchState;
  watchOn(overrides?: Partial<Watch>): Watch;
  change(watch: Watch, after: ScanResult): AlertPayload;
  /** A new state and a watch on it whose webhook (at `path`) is down until `receiver().down = false`. */
  watchingDown(path: string): Promise<{ state: WatchState; watch: Watch; receiver: WebhookReceiver }>;
  /** The delivery once delivered or failed. */
  settled(state: WatchState, id: string, webhookId: string): Promise<DeliveryRecord>;
}

export function watchStateContract(name: string, backend: WatchBackend): void {
  let receiver: WebhookReceiver;
  const opened: WatchState[] = [];
  const clock = { offset: 0 };
  const base = (): WatchStateOptions => ({
    mode: 'sandbox',
    signingKey,
    maxWatches: 1_000,
    maxWatchesPerSubject: 100,
    retry: () => 20,
    pollMs: 20,
    now: () => Date.now() + clock.offset,
  });
  const track = (state: WatchState) => {
    opened.push(state);
    return state;
  };
  const ctx: WatchCtx = {
    backend,
    clock,
    receiver: () => receiver,
    base,
    track,
    open: async (options = {}) => track(await backend.open({ ...base(), ...options })),
    watchOn: (overrides = {}) => watchOn(receiver, clock, overrides),
    change,
    watchingDown: async (path) => {
      const state = await ctx.open();
      const watch = ctx.watchOn({ webhook: receiver.url(path) });
      await state.create(watch);
      receiver.down = true;
      return { state, watch, receiver };
    },
    settled: (state, id, webhookId) =>
      eventually(`delivery ${webhookId} settles`, async () => {
        const record = (await state.deliveries(id, 100)).find((d) => d.webhookId === webhookId);
        return record !== undefined && record.state !== 'pending' ? record : undefined;
      }),
  };
  describe(`${name} watch state`, () => {
    // Inside the suite, so they run before the test file's own (which stop servers).
    before(async () => {
      receiver = await startWebhookReceiver();
    });
    after(async () => {
      await Promise.all(opened.map((s) => s.close().catch(() => undefined)));
      await receiver.close();
    });
    afterEach(() => {
      receiver.down = false;
      receiver.hold = false;
      receiver.release();
    });
    lifecycleTests(ctx);
    capTests(ctx);
    deliveryTests(ctx);
    closingTests(ctx);
    retryTests(ctx);
    safetyTests(ctx);
    if (backend.another !== undefined) instanceTests(ctx);
    if (backend.corrupt !== undefined) corruptionTests(ctx);
  });
}

function watchOn(receiver: WebhookReceiver, clock: { offset: number }, overrides: Partial<Watch>): Watch {
  const id = randomUUID();
  const createdAt = Date.now() + clock.offset;
  return {
    id,
    kind: 'token',
    subject: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    webhook: receiver.url(`/${id}`),
    hours: 1,
    createdAt,
    expiresAt: createdAt + HOUR,
    status: 'active',
    secret: `whsec_${randomBytes(24).toString('base64')}`,
    latest: scanResult(0.1, []),
    version: 0,
    ...overrides,
  };
}

function change(watch: Watch, after: ScanResult): AlertPayload {
  return {
    type: 'watch.changed',
    watch_id: watch.id,
    kind: watch.kind,
    subject: watch.subject,
    changed: {
      scoreBefore: watch.latest.risk_score,
      scoreAfter: after.risk_score,
      flagsAdded: after.flags.filter((f) => !watch.latest.flags.includes(f)),
      flagsRemoved: watch.latest.flags.filter((f) => !after.flags.includes(f)),
    },
    before: watch.latest,
    after,
  };
}

/** Both signatures of a received delivery verify: v1 with the watch's secret, v1a with the JWKS. */
export function assertSigned(received: ReceivedDelivery, secret: string): void {
  const headers = received.headers as Record<string, string>;
  assert.deepEqual(new Webhook(secret).verify(received.body, headers), JSON.parse(received.body));
  assert.deepEqual(verifyWebhook(publishedKeys, headers, received.body), JSON.parse(received.body));
}

function lifecycleTests(ctx: WatchCtx): void {
  it('keeps a watch: get gives it back, an unknown id is null', async () => {
    const state = await ctx.open();
    const watch = ctx.watchOn();
    assert.deepEqual(await state.create(watch), watch);
    assert.deepEqual(await state.get(watch.id), watch);
    assert.equal(await state.get(randomUUID()), null);
    assert.ok((await state.active()).some((w) => w.id === watch.id));
  });

  it('cancels an active watch: no longer active, a change is no longer recorded', async () => {
    const state = await ctx.open();
    const watch = ctx.watchOn();
    await state.create(watch);
    assert.equal((await state.cancel(watch.id))?.status, 'cancelled');
    assert.equal((await state.get(watch.id))?.status, 'cancelled');
    assert.equal((await state.cancel(watch.id))?.status, 'cancelled', 'cancelling again changes nothing');
    assert.equal(await state.cancel(randomUUID()), null);
    assert.ok(!(await state.active()).some((w) => w.id === watch.id));
    assert.equal(await state.recordChange(watch.id, 0, ctx.change(watch, scanResult(0.9, ['X']))), null);
  });

  it('keeps a watch once: creating it again (a replayed payment) overwrites nothing', async () => {
    const state = await ctx.open();
    const watch = ctx.watchOn();
    await state.create(watch);
    const after = scanResult(0.8, ['MINT_AUTHORITY_ACTIVE']);
    assert.ok(await state.recordChange(watch.id, 0, ctx.change(watch, after)));
    assert.deepEqual(await state.create(watch), { ...watch, latest: after, version: 1 }, 'the kept one');
    assert.equal((await state.get(watch.id))?.version, 1, 'the version is not rewound');
    await state.cancel(watch.id);
    assert.equal(((await state.create(watch)) as Watch).status, 'cancelled');
    assert.equal((await state.get(watch.id))?.status, 'cancelled', 'a cancelled watch is not revived');
    assert.ok(!(await state.active()).some((w) => w.id === watch.id));
  });

  it('a watch past its expiry is expired: not active, no change recorded, not cancellable', async () => {
    const state = await ctx.open();
    const watch = ctx.watchOn();
    await state.create(watch);
    ctx.clock.offset += HOUR;
    try {
      assert.equal((await state.get(watch.id))?.status, 'expired');
      assert.ok(!(await state.active()).some((w) => w.id === watch.id));
      assert.equal(await state.recordChange(watch.id, 0, ctx.change(watch, scanResult(0.9, ['X']))), null);
      assert.equal((await state.cancel(watch.id))?.status, 'expired');
    } finally {
      ctx.clock.offset -= HOUR;
    }
  });

  it('records a change against the current version only, and makes it the new baseline', async () => {
    const state = await ctx.open();
    const watch = ctx.watchOn();
    await state.create(watch);
    const after = scanResult(0.8, ['MINT_AUTHORITY_ACTIVE']);
    const record = await state.recordChange(watch.id, 0, ctx.change(watch, after));
    assert.ok(record);
    assert.match(record.webhookId, /^msg_/);
    assert.equal(record.watchId, watch.id);
    assert.equal(await state.recordChange(watch.id, 0, ctx.change(watch, after)), null, 'stale version');
    assert.equal(await state.recordChange(randomUUID(), 0, ctx.change(watch, after)), null, 'no such watch');
    const now = await state.get(watch.id);
    assert.equal(now?.version, 1);
    assert.deepEqual(now?.latest, after);
  });
}

function capTests(ctx: WatchCtx): void {
  it('caps watches per subject and in total, before and at creation', async () => {
    const state = await ctx.open({ maxWatches: 3, maxWatchesPerSubject: 2 });
    const [a, b, c] = ['SubjectA', 'SubjectB', 'SubjectC'];
    assert.equal(await state.room(a), null);
    await state.create(ctx.watchOn({ subject: a }));
    await state.create(ctx.watchOn({ subject: a }));
    assert.equal(await state.room(a), 'subject_full');
    assert.equal(await state.create(ctx.watchOn({ subject: a })), 'subject_full');
    assert.equal(await state.room(b), null);
    const onB = ctx.watchOn({ subject: b });
    assert.deepEqual(await state.create(onB), onB);
    assert.equal(await state.room(c), 'service_full');
    assert.equal(await state.create(ctx.watchOn({ subject: c })), 'service_full');
    assert.equal(await state.get(onB.id).then((w) => w?.status), 'active');
    await state.cancel(onB.id);
    assert.equal(await state.room(c), null, 'a cancelled watch stops counting');
  });

  it('a paid watch is kept over the caps (they filled during its settle call), and then counts', async () => {
    const state = await ctx.open({ maxWatches: 2, maxWatchesPerSubject: 1 });
    await state.create(ctx.watchOn({ subject: 'SubjectA' }));
    const paid = ctx.watchOn({ subject: 'SubjectA' });
    assert.equal(await state.create(paid), 'subject_full', 'unpaid, the cap holds');
    assert.deepEqual(await state.create(paid, { paid: true }), paid);
    assert.ok((await state.active()).some((w) => w.id === paid.id));
    assert.equal(await state.room('SubjectB'), 'service_full', 'the paid watch counts');
  });

  it('an expired watch stops counting against the caps', async () => {
    const state = await ctx.open({ maxWatches: 1, maxWatchesPerSubject: 1 });
    await state.create(ctx.watchOn({ subject: 'S' }));
    assert.equal(await state.room('S'), 'service_full');
    ctx.clock.offset += HOUR;
    try {
      assert.equal(await state.room('S'), null);
      const next = ctx.watchOn({ subject: 'S' });
      assert.deepEqual(await state.create(next), next);
    } finally {
      ctx.clock.offset -= HOUR;
    }
  });

  it('of concurrent creations beyond the cap, only the cap is taken', async () => {
    const state = await ctx.open({ maxWatches: 100, maxWatchesPerSubject: 3 });
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => state.create(ctx.watchOn({ subject: 'Hot' }))),
    );
    assert.equal(outcomes.filter((o) => typeof o !== 'string').length, 3);
    assert.equal(outcomes.filter((o) => o === 'subject_full').length, 7);
  });
}

function deliveryTests(ctx: WatchCtx): void {
  it('delivers a recorded change once, signed v1 (the watch secret) and v1a (the published key)', async () => {
    const state = await ctx.open();
    const watch = ctx.watchOn();
    await state.create(watch);
    const payload = ctx.change(watch, scanResult(0.7, ['FREEZE_AUTHORITY_ACTIVE']));
    const record = await state.recordChange(watch.id, 0, payload);
    assert.ok(record);
    const done = await ctx.settled(state, watch.id, record.webhookId);
    assert.equal(done.state, 'delivered');
    assert.equal(done.attempts.length, 1);
    assert.equal(done.attempts[0]?.status, 200);
    const got = ctx.receiver().on(`/${watch.id}`);
    assert.equal(got.length, 1);
    assert.equal(got[0]?.headers['webhook-id'], record.webhookId);
    assert.deepEqual(JSON.parse(got[0]?.body ?? ''), payload);
    assertSigned(got[0] as ReceivedDelivery, watch.secret);
  });

  it('a pending delivery is delivered after a restart', durableOnly(ctx.backend), async () => {
    const { state, watch, receiver } = await ctx.watchingDown('/restart');
    const record = await state.recordChange(watch.id, 0, ctx.change(watch, scanResult(0.9, ['LP_UNLOCKED'])));
    assert.ok(record);
    await eventually('a first attempt fails', () => (receiver.on('/restart').length > 0 ? true : undefined));
    const again = ctx.track(await reopen(ctx.backend)(state, ctx.base()));
    assert.equal((await again.deliveries(watch.id, 10))[0]?.state, 'pending');
    receiver.down = false;
    const done = await ctx.settled(again, watch.id, record.webhookId);
    assert.equal(done.state, 'delivered');
    assert.ok(receiver.on('/restart').every((r) => r.headers['webhook-id'] === record.webhookId));
    assertSigned(receiver.on('/restart').at(-1) as ReceivedDelivery, watch.secret);
  });

  it('keeps the last deliveries of a watch, newest first', async () => {
    const state = await ctx.open({ keepDeliveries: 3 });
    let watch = ctx.watchOn();
    await state.create(watch);
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const record = await state.recordChange(
        watch.id,
        watch.version,
        ctx.change(watch, scanResult(i / 10, [`F${i}`])),
      );
      assert.ok(record);
      ids.push(record.webhookId);
      await ctx.settled(state, watch.id, record.webhookId);
      watch = (await state.get(watch.id)) as Watch;
    }
    const log = await state.deliveries(watch.id, 10);
    assert.deepEqual(
      log.map((d) => d.webhookId),
      ids.slice(2).reverse(),
    );
    assert.deepEqual(
      (await state.deliveries(watch.id, 1)).map((d) => d.webhookId),
      [ids[4]],
    );
    assert.equal(new Set(ids).size, 5);
  });
}

function closingTests(ctx: WatchCtx): void {
  it(
    'closing while an attempt is in flight keeps its outcome: not sent again after reopening',
    durableOnly(ctx.backend),
    async () => {
      const receiver = ctx.receiver();
      const state = await ctx.open();
      const watch = ctx.watchOn({ webhook: receiver.url('/closing') });
      await state.create(watch);
      receiver.hold = true;
      const record = await state.recordChange(watch.id, 0, ctx.change(watch, scanResult(0.9, ['X'])));
      assert.ok(record);
      await eventually('the attempt reaches the webhook', () =>
        receiver.on('/closing').length > 0 ? true : undefined,
      );
      const again = reopen(ctx.backend)(state, ctx.base()).then(ctx.track);
      receiver.release();
      const reopened = await again;
      const [done] = await reopened.deliveries(watch.id, 1);
      assert.equal(done?.state, 'delivered');
      assert.deepEqual(
        done?.attempts.map((a) => a.status),
        [200],
      );
      assert.equal(receiver.on('/closing').length, 1);
    },
  );
}

function retryTests(ctx: WatchCtx): void {
  it('a webhook down for a while gets the delivery when back, with the same webhook-id', async () => {
    const { state, watch, receiver } = await ctx.watchingDown('/flaky');
    const record = await state.recordChange(watch.id, 0, ctx.change(watch, scanResult(0.6, ['DEV_SOLD'])));
    assert.ok(record);
    await eventually('three refused attempts', () => (receiver.on('/flaky').length >= 3 ? true : undefined));
    receiver.down = false;
    const done = await ctx.settled(state, watch.id, record.webhookId);
    assert.equal(done.state, 'delivered');
    const statuses = done.attempts.map((a) => a.status);
    assert.ok(statuses.length >= 4);
    assert.deepEqual(statuses.slice(0, 3), [503, 503, 503]);
    assert.equal(statuses.at(-1), 200);
    const got = receiver.on('/flaky');
    assert.equal(got.length, statuses.length, 'each attempt logged');
    assert.ok(got.every((r) => r.headers['webhook-id'] === record.webhookId));
    assertSigned(got.at(-1) as ReceivedDelivery, watch.secret);
  });

  it('stops retrying and marks the delivery failed once the watch is cancelled', async () => {
    const { state, watch, receiver } = await ctx.watchingDown('/cancelled');
    const record = await state.recordChange(watch.id, 0, ctx.change(watch, scanResult(0.6, ['X'])));
    assert.ok(record);
    await eventually('an attempt', () => (receiver.on('/cancelled').length > 0 ? true : undefined));
    await state.cancel(watch.id);
    const done = await ctx.settled(state, watch.id, record.webhookId);
    assert.equal(done.state, 'failed');
  });

  it('a retry that would fall after the expiry is not made: the delivery fails', async () => {
    const state = await ctx.open({ retry: () => 2 * HOUR });
    const watch = ctx.watchOn({ webhook: 'http://127.0.0.1:1/closed' });
    await state.create(watch);
    const record = await state.recordChange(watch.id, 0, ctx.change(watch, scanResult(0.6, ['X'])));
    assert.ok(record, 'an unreachable webhook does not make recordChange throw');
    const done = await ctx.settled(state, watch.id, record.webhookId);
    assert.equal(done.state, 'failed');
    assert.equal(done.attempts.length, 1);
    assert.equal(done.attempts[0]?.status, null);
    assert.ok(done.attempts[0]?.error);
  });
}

function safetyTests(ctx: WatchCtx): void {
  it('in mainnet mode a webhook at a private or loopback address is never contacted; the attempt is logged refused', async () => {
    const receiver = ctx.receiver();
    const resolve = async () => [{ address: '10.0.0.5', family: 4 as const }];
    const state = await ctx.open({ mode: 'mainnet', resolve, retry: () => 2 * HOUR });
    const before = receiver.received.length;
    for (const webhook of [
      receiver.url('/mainnet').replace('http:', 'https:'),
      'https://hooks.internal.test/x',
    ]) {
      const watch = ctx.watchOn({ webhook });
      await state.create(watch);
      const record = await state.recordChange(watch.id, 0, ctx.change(watch, scanResult(0.9, ['X'])));
      assert.ok(record);
      const done = await ctx.settled(state, watch.id, record.webhookId);
      assert.equal(done.state, 'failed');
      assert.match(done.attempts[0]?.error ?? '', /^refused: .*(loopback|10\.0\.0\.5, a private)/);
    }
    assert.equal(receiver.received.length, before, 'nothing reached the receiver');
  });
}

function instanceTests(ctx: WatchCtx): void {
  it('two instances on one store: each change recorded by one, delivered exactly once', async () => {
    const receiver = ctx.receiver();
    const one = await ctx.open();
    const two = ctx.track(
      await (ctx.backend.another as NonNullable<WatchBackend['another']>)(one, ctx.base()),
    );
    let watch = ctx.watchOn({ webhook: receiver.url('/shared') });
    await one.create(watch);
    assert.equal((await two.get(watch.id))?.id, watch.id, 'what one keeps, the other sees');
    const webhookIds: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const payload = ctx.change(watch, scanResult(i / 10, [`F${i}`]));
      const outcomes = await Promise.all(
        [one, two, one, two].map((s) => s.recordChange(watch.id, watch.version, payload)),
      );
      const recorded = outcomes.filter((o) => o !== null);
      assert.equal(recorded.length, 1, 'one of the racing instances records the change');
      webhookIds.push((recorded[0] as DeliveryRecord).webhookId);
      watch = (await two.get(watch.id)) as Watch;
    }
    for (const webhookId of webhookIds)
      assert.equal((await ctx.settled(one, watch.id, webhookId)).state, 'delivered');
    const got = receiver.on('/shared').map((r) => r.headers['webhook-id']);
    assert.deepEqual([...got].sort(), [...webhookIds].sort(), 'each change delivered exactly once');
  });

  it('a watch created or cancelled through one instance is announced to the other', async () => {
    const one = await ctx.open();
    const two = ctx.track(
      await (ctx.backend.another as NonNullable<WatchBackend['another']>)(one, ctx.base()),
    );
    assert.ok(two.watchesChanged, 'a state shared by instances tells them of new watches');
    let heard = 0;
    const stop = two.watchesChanged((): void => void heard++);
    const watch = ctx.watchOn();
    await one.create(watch);
    await eventually('the creation is heard', () => (heard >= 1 ? true : undefined));
    const afterCreate = heard;
    await one.cancel(watch.id);
    await eventually('the cancellation is heard', () => (heard > afterCreate ? true : undefined));
    stop();
  });
}

function corruptionTests(ctx: WatchCtx): void {
  it('a delivery record that cannot be read is dropped once, logged by its ids; the others are delivered', async () => {
    const warnings: { fields: Record<string, unknown>; message: string }[] = [];
    const log = {
      warn: (fields: object, message: string) => warnings.push({ fields: { ...fields }, message }),
    };
    const state = await ctx.open({ log });
    let watch = ctx.watchOn();
    await state.create(watch);
    const corrupt = [
      { webhookId: 'msg_unparseable', raw: 'not json {' },
      { webhookId: 'msg_fieldless', raw: JSON.stringify({ record: { watchId: watch.id }, body: 1 }) },
    ];
    const backend = ctx.backend as Required<WatchBackend>;
    const again = ctx.track(await backend.corrupt(state, { ...ctx.base(), log }, watch.id, corrupt));
    const delivered: string[] = [];
    // Two changes after the corrupt records: each is delivered, and the corrupt ones are not read again.
    for (const risk of [0.5, 0.9]) {
      const record = await again.recordChange(
        watch.id,
        watch.version,
        ctx.change(watch, scanResult(risk, [`R${risk}`])),
      );
      assert.ok(record);
      // Seen at the webhook (not read from the log, which must cope with the corrupt records too).
      await eventually(`${record.webhookId} reaches the webhook`, () =>
        ctx
          .receiver()
          .on(`/${watch.id}`)
          .some((r) => r.headers['webhook-id'] === record.webhookId)
          ? true
          : undefined,
      );
      delivered.push(record.webhookId);
      watch = (await again.get(watch.id)) as Watch;
    }
    const dropped = (webhookId: string) => warnings.filter((w) => w.fields.webhookId === webhookId);
    await eventually('both corrupt records logged', () =>
      corrupt.every((c) => dropped(c.webhookId).length > 0) ? true : undefined,
    );
    for (const { webhookId } of corrupt) {
      assert.equal(dropped(webhookId).length, 1, `${webhookId} dropped once`);
      assert.match(dropped(webhookId)[0]?.message ?? '', /unreadable/);
      assert.equal(await backend.isPending(again, webhookId), false, `${webhookId} no longer pending`);
    }
    assert.equal(
      dropped('msg_fieldless')[0]?.fields.watchId,
      watch.id,
      'the watch named when it can be read',
    );
    for (const webhookId of delivered) await ctx.settled(again, watch.id, webhookId);
    const kept = await again.deliveries(watch.id, 10);
    assert.deepEqual(
      kept.map((d) => d.webhookId),
      [...delivered].reverse(),
      'the log passes over what it cannot read',
    );
  });
}
