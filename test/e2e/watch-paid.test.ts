/**
 * POST /watch paid end to end in the sandbox with the official x402 client, under the `ideal` and
 * `indexed-provider` RPC profiles, against the real embedded watch state: a paid watch answers its
 * id, expiry, a fresh baseline and how alerts are signed, and exactly hours × 0.01 USDC moves;
 * the watch is active, readable and cancellable by its id; the payment's replay gives the same
 * watch; a payment that does not settle leaves no watch; the MCP tool `watch_subject` pays through
 * the same door.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { PaymentRequired } from '@x402/core/types';
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { ExactSvmScheme } from '@x402/svm';
import type { RpcProfileName } from '../../src/sandbox/rpc/profiles.js';
import type { WatchState } from '../../src/watch/model.js';
import { faultyFetch } from '../helpers/faulty-facilitator-fetch.js';
import { type PaidSandbox, startProfiledInstances } from '../helpers/paid-sandbox.js';
import { jsonOf } from '../helpers/service.js';
import {
  postWatch,
  startWatchSandbox,
  UNHEARD_WEBHOOK,
  type WatchSandbox,
  watchPaymentFor,
} from '../helpers/watch-sandbox.js';

const CAIP2 = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
/** No watch in this file sees a change, so nothing is ever sent. */
const WEBHOOK = UNHEARD_WEBHOOK;

describe('paying POST /watch', { timeout: 240_000 }, () => {
  let sandbox: PaidSandbox;
  let profiled: Awaited<ReturnType<typeof startProfiledInstances>>;
  let state: WatchState;
  let watching: WatchSandbox;
  let urls: ReadonlyMap<RpcProfileName, string>;

  before(async () => {
    watching = await startWatchSandbox({ maxWatches: 100, maxWatchesPerSubject: 10 });
    ({ sandbox, state } = watching);
    profiled = await startProfiledInstances(sandbox);
    urls = profiled.urls;
  });
  after(async () => {
    await profiled?.close();
    await watching?.close();
  });

  /** The official client's fetch. */
  const officialFetch = () => {
    const client = new x402Client().register(
      CAIP2,
      new ExactSvmScheme(sandbox.payer, { rpcUrl: sandbox.rpcServer.url }),
    );
    return { fetch: wrapFetchWithPayment(fetch, client) };
  };
  const paymentFor = (base: string, body: unknown) => watchPaymentFor(sandbox, base, body);
  const isActive = async (id: string) => (await state.active()).some((w) => w.id === id);

  for (const profile of ['ideal', 'indexed-provider'] as const) {
    it(`${profile}: pays a watch; hours × 0.01 USDC moves; read, cancelled`, async () => {
      const base = urls.get(profile)!;
      const before = await sandbox.balances();
      const paying = officialFetch();
      const order = { kind: 'token', subject: USDC_MINT, webhook: WEBHOOK, hours: 3 };
      const res = await postWatch(base, order, { fetch: paying.fetch });
      const answer = await jsonOf(res);
      assert.equal(res.status, 200, JSON.stringify(answer));
      assert.match(answer.watch_id, /^w_[A-Za-z0-9_-]{24}$/);
      assert.deepEqual(
        [answer.kind, answer.subject, answer.webhook, answer.hours],
        ['token', USDC_MINT, WEBHOOK, 3],
      );
      assert.equal(Date.parse(answer.expires_at) - Date.parse(answer.created_at), 3 * 3_600_000);
      assert.equal(answer.baseline.cached, false, 'the baseline is a fresh scan');
      assert.ok(typeof answer.baseline.risk_score === 'number');
      const jwks = await jsonOf(await fetch(`${base}/.well-known/jwks.json`));
      assert.deepEqual(answer.signing, {
        standard: 'standard-webhooks',
        signatures: ['v1a', 'v1'],
        jwks_url: `${base}/.well-known/jwks.json`,
        key_id: jwks.keys[0].kid,
        secret: answer.signing.secret,
      });
      assert.match(answer.signing.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
      assert.ok(res.headers.get('x-signature'), 'signed like every paid 200');
      assert.equal(decodePaymentResponseHeader(res.headers.get('payment-response')!).success, true);
      const after = await sandbox.balances();
      assert.equal(before.payer - after.payer, 30_000n);
      assert.equal(after.payTo - before.payTo, 30_000n);
      assert.ok(await isActive(answer.watch_id), 'the paid watch is active');

      const view = await jsonOf(await fetch(`${base}/watch/${answer.watch_id}`));
      assert.equal(view.status, 'active');
      assert.equal(view.expires_at, answer.expires_at);
      assert.deepEqual(view.latest, answer.baseline);

      const cancelled = await fetch(`${base}/watch/${answer.watch_id}`, { method: 'DELETE' });
      assert.equal((await jsonOf(cancelled)).status, 'cancelled');
      assert.equal(await isActive(answer.watch_id), false);
    });

    it(`${profile}: one payment buys one watch: its replay gives the same watch, another order nothing`, async () => {
      const base = urls.get(profile)!;
      const order = {
        kind: 'program',
        subject: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
        webhook: WEBHOOK,
        hours: 2,
      };
      const header = await paymentFor(base, order);
      const first = await jsonOf(await postWatch(base, order, { headers: header }));
      assert.match(first.watch_id, /^w_/, JSON.stringify(first));
      const paid = await sandbox.balances();
      const replay = await postWatch(base, order, { headers: header });
      assert.equal(replay.status, 200);
      assert.deepEqual(await jsonOf(replay), first);
      assert.deepEqual(await sandbox.balances(), paid);
      assert.equal((await postWatch(base, { ...order, hours: 4 }, { headers: header })).status, 402);
      // Cancelled, then replayed: the same answer, and the watch stays cancelled.
      await fetch(`${base}/watch/${first.watch_id}`, { method: 'DELETE' });
      assert.equal((await postWatch(base, order, { headers: header })).status, 200);
      assert.equal(await isActive(first.watch_id), false);
    });
  }

  it('a payment that does not settle leaves no watch and costs nothing', async () => {
    const refusing = await sandbox.startInstance({ facilitatorFetch: faultyFetch({ settle: 'refused' }) });
    const subject = sandbox.payer.address;
    const activeBefore = (await state.active()).length;
    const before = await sandbox.balances();
    const res = await postWatch(
      refusing.url,
      { kind: 'wallet', subject, webhook: WEBHOOK, hours: 1 },
      {
        fetch: officialFetch().fetch,
      },
    );
    assert.equal(res.status, 402);
    assert.deepEqual(await sandbox.balances(), before);
    assert.equal((await state.active()).length, activeBefore);
    assert.equal(
      (await state.active()).some((w) => w.subject === subject),
      false,
    );
  });

  it('the MCP tool watch_subject offers the order’s price and pays through the same door', async () => {
    const mcp = new Client({ name: 'watch-paid-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${sandbox.url}/mcp`)));
    try {
      const args = {
        kind: 'program',
        subject: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
        webhook: WEBHOOK,
        hours: 5,
      };
      const bad = (await mcp.callTool({
        name: 'watch_subject',
        arguments: { ...args, hours: 0 },
      })) as CallToolResult;
      assert.equal(bad.isError, true);
      assert.match(JSON.stringify(bad.structuredContent), /hours/);
      const offer = (await mcp.callTool({ name: 'watch_subject', arguments: args })) as CallToolResult;
      assert.equal(offer.isError, true);
      const required = offer.structuredContent as unknown as PaymentRequired;
      assert.equal(required.accepts[0]!.amount, '50000');
      const payments = new x402Client().register(
        CAIP2,
        new ExactSvmScheme(sandbox.payer, { rpcUrl: sandbox.rpcServer.url }),
      );
      const payment = await payments.createPaymentPayload(required);
      const before = await sandbox.balances();
      const paid = (await mcp.callTool({
        name: 'watch_subject',
        arguments: args,
        _meta: { 'x402/payment': payment },
      })) as CallToolResult;
      assert.notEqual(paid.isError, true, JSON.stringify(paid));
      const answer = paid.structuredContent as { watch_id: string; subject: string };
      assert.equal(answer.subject, args.subject);
      assert.ok(await isActive(answer.watch_id));
      assert.equal(before.payer - (await sandbox.balances()).payer, 50_000n);
    } finally {
      await mcp.close();
    }
  });
});
