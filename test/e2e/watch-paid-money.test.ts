/**
 * POST /watch and the money rules where a watch differs from a scan: work follows settlement,
 * and checks made before payment can change their answer later. Paid through the sandbox with a
 * real embedded watch state; only the faults are injected (a watch store that fails once).
 *
 * - A settled payment's replay gives its watch even when the checks before payment would now
 *   refuse the order (the subject has since filled): what was paid for is never withheld.
 * - A watch that could not be started after settlement: the 503 carries the settlement receipt
 *   (over HTTP and MCP), and the replay starts that very watch without a second charge.
 * - A watch store that cannot be read before payment: 503 with a reason, Retry-After, no cause.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { PaymentRequired } from '@x402/core/types';
import { decodePaymentResponseHeader, x402Client } from '@x402/fetch';
import { ExactSvmScheme } from '@x402/svm';
import { reasonText } from '../../src/reasons.js';
import { SCANNERS } from '../../src/scans/registry.js';
import { selling } from '../../src/service/index.js';
import type { Watch, WatchState } from '../../src/watch/model.js';
import type { PaidSandbox } from '../helpers/paid-sandbox.js';
import { jsonOf } from '../helpers/service.js';
import {
  postWatch,
  startWatchSandbox,
  UNHEARD_WEBHOOK,
  type WatchSandbox,
  watchPaymentFor,
} from '../helpers/watch-sandbox.js';
import { scanResult } from '../helpers/watch-state-contract.js';

const CAIP2 = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
/** No watch in this file sees a change, so nothing is ever sent. */
const WEBHOOK = UNHEARD_WEBHOOK;
const PER_SUBJECT = 2;

describe('POST /watch: the money rules of a watch', { timeout: 240_000 }, () => {
  let sandbox: PaidSandbox;
  let state: WatchState;
  let watching: WatchSandbox;

  before(async () => {
    watching = await startWatchSandbox({ maxWatches: 100, maxWatchesPerSubject: PER_SUBJECT });
    ({ sandbox, state } = watching);
  });
  after(() => watching?.close());

  const paymentFor = (base: string, body: unknown) => watchPaymentFor(sandbox, base, body);
  const isActive = async (id: string) => (await state.active()).some((w) => w.id === id);
  const otherWatchOn = (subject: string): Watch => ({
    id: `w_other_${Math.random().toString(36).slice(2)}`,
    kind: 'program',
    subject,
    webhook: WEBHOOK,
    hours: 1,
    createdAt: Date.now(),
    expiresAt: Date.now() + 3_600_000,
    status: 'active',
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    latest: scanResult(0.1, []),
    version: 0,
  });

  it('a settled payment’s replay gives its watch even once the subject is full; a new order is refused', async () => {
    const subject = sandbox.payer.address;
    const order = { kind: 'wallet', subject, webhook: WEBHOOK, hours: 1 };
    const header = await paymentFor(sandbox.url, order);
    const first = await postWatch(sandbox.url, order, { headers: header });
    const bought = await jsonOf(first);
    assert.equal(first.status, 200, JSON.stringify(bought));
    for (let i = 1; i < PER_SUBJECT; i++)
      assert.equal(typeof (await state.create(otherWatchOn(subject))), 'object');
    const paid = await sandbox.balances();

    const refused = await postWatch(sandbox.url, { ...order, hours: 2 });
    assert.equal(refused.status, 503);
    assert.equal((await jsonOf(refused)).reason, 'subject_full');

    const replay = await postWatch(sandbox.url, order, { headers: header });
    const again = await jsonOf(replay);
    assert.equal(
      replay.status,
      200,
      `the paid watch is handed over again, not refused: ${JSON.stringify(again)}`,
    );
    assert.deepEqual(again, bought);
    assert.equal(decodePaymentResponseHeader(replay.headers.get('payment-response')!).success, true);
    assert.deepEqual(await sandbox.balances(), paid, 'nothing moves on a replay');
  });

  /** An instance of the sandbox whose watch store refuses the next `failures` creations. */
  const withFailingCreate = async (failures: { left: number }) => {
    const failing: WatchState = {
      ...state,
      create: (watch) =>
        failures.left-- > 0
          ? Promise.reject(new Error('watch store at /secret/path is closed'))
          : state.create(watch),
    };
    return sandbox.startInstance({ mode: selling(SCANNERS, { watches: { state: failing } }) });
  };

  it('a watch not started after settlement: 503 with the receipt; the replay starts that watch, paid once', async () => {
    const instance = await withFailingCreate({ left: 1 });
    const order = { kind: 'program', subject: TOKEN_PROGRAM, webhook: WEBHOOK, hours: 3 };
    const header = await paymentFor(instance.url, order);
    const before = await sandbox.balances();
    const failed = await postWatch(instance.url, order, { headers: header });
    const body = await jsonOf(failed);
    assert.equal(failed.status, 503, JSON.stringify(body));
    assert.equal(body.reason, 'watch_not_started');
    assert.doesNotMatch(JSON.stringify(body), /secret/);
    const receipt = decodePaymentResponseHeader(failed.headers.get('payment-response')!);
    assert.equal(receipt.success, true, 'the payer is shown what was charged');
    const charged = await sandbox.balances();
    assert.equal(before.payer - charged.payer, 30_000n);

    const replay = await postWatch(instance.url, order, { headers: header });
    const answer = await jsonOf(replay);
    assert.equal(replay.status, 200, JSON.stringify(answer));
    assert.equal(
      decodePaymentResponseHeader(replay.headers.get('payment-response')!).transaction,
      receipt.transaction,
    );
    assert.ok(await isActive(answer.watch_id), 'the replay started the watch paid for');
    assert.deepEqual(await sandbox.balances(), charged, 'paid once');
  });

  it('over MCP, the same failure carries the receipt in _meta', async () => {
    const instance = await withFailingCreate({ left: 1 });
    const mcp = new Client({ name: 'watch-money-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${instance.url}/mcp`)));
    try {
      const args = { kind: 'program', subject: TOKEN_PROGRAM, webhook: WEBHOOK, hours: 1 };
      const offer = (await mcp.callTool({ name: 'watch_subject', arguments: args })) as CallToolResult;
      const required = offer.structuredContent as unknown as PaymentRequired;
      const payment = await new x402Client()
        .register(CAIP2, new ExactSvmScheme(sandbox.payer, { rpcUrl: sandbox.rpcServer.url }))
        .createPaymentPayload(required);
      const call = () =>
        mcp.callTool({
          name: 'watch_subject',
          arguments: args,
          _meta: { 'x402/payment': payment },
        }) as Promise<CallToolResult>;
      const failed = await call();
      assert.equal(failed.isError, true);
      assert.equal((failed.structuredContent as { reason: string }).reason, 'watch_not_started');
      const receipt = failed._meta?.['x402/payment-response'] as { success: boolean; transaction: string };
      assert.equal(receipt?.success, true, JSON.stringify(failed));
      const paid = await call();
      assert.notEqual(paid.isError, true, JSON.stringify(paid));
      assert.ok(await isActive((paid.structuredContent as { watch_id: string }).watch_id));
    } finally {
      await mcp.close();
    }
  });

  it('a watch store that cannot be read before payment: 503, Retry-After, a reason and no cause', async () => {
    const broken: WatchState = {
      ...state,
      room: () => Promise.reject(new Error('connect ECONNREFUSED secret-host:6379')),
    };
    const instance = await sandbox.startInstance({ mode: selling(SCANNERS, { watches: { state: broken } }) });
    const order = { kind: 'program', subject: TOKEN_PROGRAM, webhook: WEBHOOK, hours: 1 };
    const res = await postWatch(instance.url, order);
    const body = await jsonOf(res);
    assert.equal(res.status, 503, JSON.stringify(body));
    assert.equal(res.headers.get('retry-after'), '5');
    assert.equal(body.reason, 'check_unavailable');
    assert.equal(body.message, reasonText('check_unavailable', { seconds: 5 }));
    assert.doesNotMatch(JSON.stringify(body), /secret-host|ECONNREFUSED/);

    const mcp = new Client({ name: 'watch-money-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${instance.url}/mcp`)));
    try {
      const result = (await mcp.callTool({ name: 'watch_subject', arguments: order })) as CallToolResult;
      assert.equal(result.isError, true);
      assert.equal((result.structuredContent as { reason: string }).reason, 'check_unavailable');
      assert.doesNotMatch(JSON.stringify(result), /secret-host|ECONNREFUSED/);
    } finally {
      await mcp.close();
    }
  });
});
