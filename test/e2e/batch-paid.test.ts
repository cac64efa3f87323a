/**
 * POST /scan/batch paid end to end on the sandbox chain with the real scanners, the real sandbox
 * facilitators and the official x402 clients (@x402/fetch over HTTP, x402Client over MCP):
 *
 * - a batch is paid once, at the sum of its distinct subjects' single prices (a repeat is scanned
 *   and charged once, and answered at each of its places), and the balances move by exactly that;
 * - each item equals, in flags and risk score, the single scan of its subject (paid on another
 *   instance, whose cache it cannot share);
 * - the whole body is signed (X-Signature over HTTP, _meta over MCP) with the published key;
 * - bad input is a 400 naming the items at fault, before any payment, even with one attached;
 * - an item that cannot be scanned makes the batch a 500 naming it: the facilitator is never asked
 *   to settle, no USDC moves, and the same payment buys the batch once the fault is gone;
 * - an operator's discount is what the 402 asks.
 */
import assert from 'node:assert/strict';
import { createPublicKey, verify } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { generateKeyPairSigner } from '@solana/kit';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { ExactSvmScheme } from '@x402/svm';
import { atomicPrice, GET_ENDPOINTS } from '../../src/catalog.js';
import { BatchResultSchema } from '../../src/contract/batch-result.js';
import { SCANNERS } from '../../src/scans/registry.js';
import type { Scanner } from '../../src/scans/scanner.js';
import { selling } from '../../src/service/index.js';
import { createRpc } from '../../src/solana/rpc.js';
import { USDC_MINT } from '../../src/x402/networks.js';
import { type FaultProxy, PASS, startFaultProxy } from '../helpers/fault-proxy.js';
import { type PaidSandbox, startPaidSandbox } from '../helpers/paid-sandbox.js';
import { encodeHeader, v2Payment } from '../helpers/payments.js';
import { jsonOf } from '../helpers/service.js';

const CAIP2 = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
const SINGLE_PRICE = Object.fromEntries(GET_ENDPOINTS.map((e) => [e.id, BigInt(atomicPrice(e.price.usd))]));

interface Jwk {
  readonly kid: string;
  readonly [key: string]: unknown;
}

/** Whether `sig` (base64) is the Ed25519 signature of `bytes` by the published key `kid`. */
async function verifies(url: string, kid: string, sig: string, bytes: Uint8Array): Promise<boolean> {
  const { keys } = (await (await fetch(`${url}/.well-known/jwks.json`)).json()) as { keys: Jwk[] };
  const jwk = keys.find((k) => k.kid === kid);
  assert.ok(jwk, `key ${kid} is published`);
  return verify(null, bytes, createPublicKey({ key: { ...jwk }, format: 'jwk' }), Buffer.from(sig, 'base64'));
}

/** The X-Signature of a response verifies over its exact body, and not over the body changed by a byte. */
async function assertSignedWhole(url: string, header: string | null, body: string) {
  const match = /^ed25519 keyid=([A-Za-z0-9_-]+); sig=([A-Za-z0-9+/=]+)$/.exec(header ?? '');
  assert.ok(match, `X-Signature: ${header}`);
  const bytes = Buffer.from(body);
  assert.equal(await verifies(url, match[1]!, match[2]!, bytes), true, 'the whole body verifies');
  const changed = Uint8Array.from(bytes);
  changed[changed.length - 2]! ^= 0x01;
  assert.equal(await verifies(url, match[1]!, match[2]!, changed), false, 'a changed body does not');
}

const postBatch = (base: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}/scan/batch`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

/** The amount the 402 of an unpaid batch asks, in atomic units. */
async function askedFor(base: string, body: unknown): Promise<bigint> {
  const offer = await postBatch(base, body);
  assert.equal(offer.status, 402, await offer.clone().text());
  const required = decodePaymentRequiredHeader(offer.headers.get('payment-required')!);
  return BigInt(required.accepts[0]!.amount);
}

describe('POST /scan/batch, paid end to end', { timeout: 300_000 }, () => {
  let sandbox: PaidSandbox;
  /** A second instance with state of its own: its single scans are never the batch's cached ones. */
  let singles: string;
  let payFetch: typeof fetch;

  before(async () => {
    sandbox = await startPaidSandbox({}, { mode: selling(SCANNERS) });
    singles = (await sandbox.startInstance()).url;
    const client = new x402Client().register(
      CAIP2,
      new ExactSvmScheme(sandbox.payer, { rpcUrl: sandbox.rpcServer.url }),
    );
    payFetch = wrapFetchWithPayment(fetch, client);
  });
  after(() => sandbox?.close());

  /** A single scan paid on the other instance: its body. */
  async function singleScan(kind: string, subject: string) {
    const res = await payFetch(`${singles}/scan/${kind}/${subject}`);
    const body = await jsonOf(res);
    assert.equal(res.status, 200, JSON.stringify(body));
    return body;
  }

  /** A batch paid with @x402/fetch: its answer, raw body, and what moved. */
  async function payBatch(order: { kind: string; subjects: string[] }) {
    const asked = await askedFor(sandbox.url, order);
    const before = await sandbox.balances();
    const res = await payFetch(`${sandbox.url}/scan/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(order),
    });
    const text = await res.text();
    assert.equal(res.status, 200, text);
    const receipt = decodePaymentResponseHeader(res.headers.get('payment-response')!);
    assert.equal(receipt.success, true);
    const after = await sandbox.balances();
    return { res, text, body: BatchResultSchema.parse(JSON.parse(text)), asked, before, after };
  }

  it('wallets, one repeated: paid once at two single prices, answered in order, the whole body signed', async () => {
    const [a, b] = [sandbox.payer.address, sandbox.payTo];
    const order = { kind: 'wallet', subjects: [a, b, a] };
    const { res, text, body, asked, before, after } = await payBatch(order);
    assert.equal(asked, 2n * SINGLE_PRICE.wallet!, 'two distinct wallets, at the single price each');
    assert.deepEqual(after, { payer: before.payer - asked, payTo: before.payTo + asked });
    assert.equal(body.kind, 'wallet');
    assert.equal(body.subjects, 3);
    assert.equal(body.charged_items, 2);
    assert.equal(body.results.length, 3);
    assert.deepEqual(body.results[2], body.results[0], 'the repeat is its first answer');
    assert.notDeepEqual(body.results[1]!.evidence, body.results[0]!.evidence, 'each place its own subject');
    for (const result of body.results) assert.equal(result.request_id, body.request_id);
    await assertSignedWhole(sandbox.url, res.headers.get('x-signature'), text);
  });

  it('each item equals its single scan in flags and risk score (token, pump.fun and wallet)', async () => {
    const cases = [
      { kind: 'token', subjects: [USDC_MINT, sandbox.payer.address] },
      { kind: 'pumpfun', subjects: [USDC_MINT] },
      { kind: 'wallet', subjects: [sandbox.payTo, USDC_MINT] },
    ];
    for (const order of cases) {
      const { body, asked } = await payBatch(order);
      assert.equal(asked, BigInt(order.subjects.length) * SINGLE_PRICE[order.kind]!, order.kind);
      for (const [i, subject] of order.subjects.entries()) {
        const single = await singleScan(order.kind, subject);
        const item = body.results[i]!;
        assert.deepEqual(item.flags, single.flags, `${order.kind} ${subject}: flags`);
        assert.equal(item.risk_score, single.risk_score, `${order.kind} ${subject}: risk_score`);
      }
    }
  });

  it('bad input is a 400 naming the items at fault, before any payment, even with one attached', async () => {
    const good = sandbox.payer.address;
    const header = encodeHeader(
      await v2Payment(
        sandbox.payer,
        sandbox.rpcServer.url,
        await walletOffer(sandbox.url, good),
        `${sandbox.url}/scan/batch`,
      ),
    );
    const before = await sandbox.balances();
    const cases: [unknown, string, RegExp][] = [
      [
        { kind: 'wallet', subjects: [good, 'not-an-address', good, 'O0Il'] },
        'batch_subjects_invalid',
        /subjects\[1\].*subjects\[3\]/,
      ],
      [{ kind: 'wallet', subjects: Array(26).fill(good) }, 'batch_size', /1 to 25 .* 26/],
      [{ kind: 'wallet', subjects: [] }, 'batch_size', /it holds 0/],
      [
        { kind: 'program', subjects: [good] },
        'batch_kind_unknown',
        /token, pumpfun, wallet; it is "program"/,
      ],
    ];
    for (const [body, code, words] of cases) {
      for (const headers of [{}, { 'PAYMENT-SIGNATURE': header }]) {
        const res = await postBatch(sandbox.url, body, headers);
        const answer = await jsonOf(res);
        assert.equal(res.status, 400, JSON.stringify(answer));
        assert.equal(answer.reason, code);
        assert.match(answer.message, words);
      }
    }
    assert.deepEqual(await sandbox.balances(), before, 'nothing moved');
  });

  it("an operator's discount is what the 402 asks, and what the documents say", async () => {
    const discounted = await sandbox.startInstance({}, { BATCH_DISCOUNT_PERCENT: '10' });
    const order = { kind: 'token', subjects: [USDC_MINT, sandbox.payer.address, USDC_MINT] };
    assert.equal(await askedFor(discounted.url, order), (2n * SINGLE_PRICE.token! * 9n) / 10n);
    const llms = await (await fetch(`${discounted.url}/llms.txt`)).text();
    assert.match(
      llms,
      /POST \/scan\/batch.*0\.018 to 0\.45 USDC per item \(the single scan price of its kind, less 10 %\)/,
    );
  });

  it('over MCP: scan_batch paid with x402Client, a BatchResult whose text is signed whole', async () => {
    const mcp = new Client({ name: 'batch-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${sandbox.url}/mcp`)));
    try {
      const payments = new x402Client().register(
        CAIP2,
        new ExactSvmScheme(sandbox.payer, { rpcUrl: sandbox.rpcServer.url }),
      );
      const args = { kind: 'wallet', subjects: [sandbox.payTo, sandbox.payTo, sandbox.payer.address] };
      const call = (meta?: Record<string, unknown>) =>
        mcp.callTool({
          name: 'scan_batch',
          arguments: args,
          ...(meta ? { _meta: meta } : {}),
        }) as Promise<CallToolResult>;
      const offer = await call();
      assert.equal(offer.isError, true);
      const required = offer.structuredContent as unknown as PaymentRequired;
      assert.equal(required.resource.url, `${sandbox.url}/scan/batch`);
      assert.equal(BigInt(required.accepts[0]!.amount), 2n * SINGLE_PRICE.wallet!);
      const before = await sandbox.balances();
      const paid = await call({ 'x402/payment': await payments.createPaymentPayload(required) });
      assert.notEqual(paid.isError, true, JSON.stringify(paid.content));
      const body = BatchResultSchema.parse(paid.structuredContent);
      assert.equal(body.charged_items, 2);
      assert.deepEqual(body.results[1], body.results[0]);
      const price = 2n * SINGLE_PRICE.wallet!;
      assert.deepEqual(await sandbox.balances(), {
        payer: before.payer - price,
        payTo: before.payTo + price,
      });
      const signature = paid._meta?.['risk-scan/signature'] as { keyid: string; sig: string };
      const text = (paid.content[0] as { text: string }).text;
      assert.equal(await verifies(sandbox.url, signature.keyid, signature.sig, Buffer.from(text)), true);
    } finally {
      await mcp.close();
    }
  });

  it('25 subjects are scanned at once, within one scan deadline: each waits for all the others to start', async () => {
    const distinct = await Promise.all(
      Array.from({ length: 24 }, async () => (await generateKeyPairSigner()).address),
    );
    const subjects = [...distinct, distinct[0]!];
    // The real wallet scanner, started only once every distinct subject's scan has started: a
    // batch that scanned one after another would wait here until the scan deadline failed it.
    const started = new Set<string>();
    let calls = 0;
    let allStarted: () => void;
    const everyone = new Promise<void>((resolve) => {
      allStarted = resolve;
    });
    const wallet: Scanner = async (subject, ctx) => {
      calls++;
      started.add(subject);
      if (started.size === distinct.length) allStarted();
      await everyone;
      return SCANNERS.wallet(subject, ctx);
    };
    const gated = await sandbox.startInstance({ mode: selling({ ...SCANNERS, wallet }) });
    const order = { kind: 'wallet', subjects };
    const asked = await askedFor(gated.url, order);
    assert.equal(asked, 24n * SINGLE_PRICE.wallet!);
    const res = await payFetch(`${gated.url}/scan/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(order),
    });
    const body = BatchResultSchema.parse(await jsonOf(res));
    assert.equal(res.status, 200);
    assert.equal(calls, 24, 'each distinct subject scanned once, the repeat not again');
    assert.equal(body.results.length, 25);
    assert.deepEqual(body.results[24], body.results[0]);
  });

  describe('an item that cannot be scanned', () => {
    let rpcProxy: FaultProxy;
    let facilitatorProxy: FaultProxy;
    let url: string;
    let singleUrl: string;
    before(async () => {
      rpcProxy = await startFaultProxy(sandbox.rpcServer.url);
      facilitatorProxy = await startFaultProxy(sandbox.facilitators[0]!.url);
      // No breaker: the spoiled subject's failures must not fail the others' reads with it.
      const rpc = createRpc({ urls: [rpcProxy.url], timeoutMs: 5_000, breaker: { failures: 0 } });
      const instance = await sandbox.startInstance(
        { mode: selling(SCANNERS), rpc },
        {
          FACILITATOR_URLS: facilitatorProxy.url,
          FACILITATOR_TIMEOUT_MS: '30000',
          SETTLE_TIMEOUT_MS: '30000',
        },
      );
      url = instance.url;
      const rpcOfSingles = createRpc({ urls: [rpcProxy.url], timeoutMs: 5_000, breaker: { failures: 0 } });
      singleUrl = (await sandbox.startInstance({ mode: selling(SCANNERS), rpc: rpcOfSingles })).url;
    });
    /** A v2 payment of the payer for the order's 402, built by the official client's scheme. */
    async function paymentFor(base: string, order: unknown): Promise<Record<string, string>> {
      const offer = await postBatch(base, order);
      const { accepts, resource } = decodePaymentRequiredHeader(offer.headers.get('payment-required')!);
      const payment = await v2Payment(sandbox.payer, sandbox.rpcServer.url, accepts[0]!, resource.url);
      return { 'PAYMENT-SIGNATURE': encodeHeader(payment) };
    }
    after(async () => {
      await rpcProxy?.close();
      await facilitatorProxy?.close();
    });

    it('makes the batch a 500 naming it: never settled, nothing moves; the same payment buys it once the RPC is back', async () => {
      const failing = (await sandbox.newPayer(0n)).address;
      const order = { kind: 'wallet', subjects: [sandbox.payTo, failing] };
      // Only the failing wallet's own reads are spoiled: the payment's reads pass.
      const spoiled = (r: { method: string; params: unknown }) =>
        r.method === 'getAccountInfo' && Array.isArray(r.params) && r.params[0] === failing;
      rpcProxy.setPlan((r) => (spoiled(r) ? { kind: '500' } : { kind: 'pass' }));
      const header = await paymentFor(url, order);
      const before = await sandbox.balances();

      const res = await postBatch(url, order, header);
      const answer = await jsonOf(res);
      assert.equal(res.status, 500, JSON.stringify(answer));
      assert.equal(answer.reason, 'batch_failed');
      assert.ok(answer.message.includes(failing), answer.message);
      assert.ok(!answer.message.includes(sandbox.payTo), 'the item that was scanned is not named');
      assert.equal(
        facilitatorProxy.seen.get('POST /settle'),
        undefined,
        'the facilitator was never asked to settle',
      );
      assert.deepEqual(await sandbox.balances(), before, 'no USDC moved');

      rpcProxy.setPlan(PASS);
      const again = await postBatch(url, order, header);
      assert.equal(again.status, 200, await again.clone().text());
      const price = 2n * SINGLE_PRICE.wallet!;
      assert.deepEqual(await sandbox.balances(), {
        payer: before.payer - price,
        payTo: before.payTo + price,
      });
      assert.equal(facilitatorProxy.seen.get('POST /settle'), 1, 'settled once, for the batch delivered');
    });

    it("a subject whose history cannot be read is answered with its *_UNAVAILABLE flag, as its single scan's would be", async () => {
      const unreadable = (await sandbox.newPayer(0n)).address;
      rpcProxy.setPlan((r) =>
        r.method === 'getSignaturesForAddress' && Array.isArray(r.params) && r.params[0] === unreadable
          ? { kind: '500' }
          : { kind: 'pass' },
      );
      const order = { kind: 'wallet', subjects: [sandbox.payTo, unreadable] };
      const res = await postBatch(url, order, await paymentFor(url, order));
      const body = BatchResultSchema.parse(await jsonOf(res));
      assert.equal(res.status, 200);
      assert.ok(
        body.results[1]!.flags.includes('HISTORY_UNAVAILABLE'),
        JSON.stringify(body.results[1]!.flags),
      );
      assert.ok(!body.results[0]!.flags.includes('HISTORY_UNAVAILABLE'));
      // The same subject's single scan, behind the same fault, on an instance with a cache of its own.
      const res1 = await payFetch(`${singleUrl}/scan/wallet/${unreadable}`);
      const single = await jsonOf(res1);
      assert.equal(res1.status, 200, JSON.stringify(single));
      assert.deepEqual(body.results[1]!.flags, single.flags);
      assert.equal(body.results[1]!.risk_score, single.risk_score);
    });
  });
});

/** A v2 requirement to build a payment from (any offer's: a 400 comes before it is read). */
async function walletOffer(base: string, subject: string) {
  const res = await fetch(`${base}/scan/wallet/${subject}`);
  return decodePaymentRequiredHeader(res.headers.get('payment-required')!).accepts[0]!;
}
