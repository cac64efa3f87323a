/**
 * POST /mcp, driven by the MCP SDK's own Client over Streamable HTTP against the paid sandbox
 * (real scanners, real facilitators, real chain): the tools come from the catalog; an unpaid call
 * answers the same v2 offer as the HTTP 402; a PaymentPayload built by the official x402 client
 * and sent in `_meta["x402/payment"]` buys one ScanResult, settled on chain; the money rules hold
 * as on HTTP (replay, payment_used, bad arguments refused before any claim).
 */
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { x402HTTPClient } from '@x402/core/client';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { x402Client } from '@x402/fetch';
import { ExactSvmScheme } from '@x402/svm';
import {
  atomicPrice,
  concretePath,
  GET_ENDPOINTS,
  listedPrice,
  orderPriceUsd,
  POST_ENDPOINTS,
} from '../../src/catalog.js';
import { ScanResultSchema } from '../../src/contract/schemas.js';
import { LIST_TOOL, TOOL_ENDPOINTS, toolName } from '../../src/mcp/tools.js';
import type { SimulationScenario } from '../../src/sandbox/scenarios/manifest.js';
import { SCANNERS } from '../../src/scans/registry.js';
import { ScanFailedError, type Scanner } from '../../src/scans/scanner.js';
import { selling } from '../../src/service/index.js';
import { USDC_MINT } from '../../src/x402/networks.js';
import { type PaidSandbox, simulationsOn, startPaidSandbox } from '../helpers/paid-sandbox.js';

const CAIP2 = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
const TOKEN = GET_ENDPOINTS.find((e) => e.id === 'token')!;
const PRICE = BigInt(atomicPrice(TOKEN.price.usd));
const SIMULATE = POST_ENDPOINTS.find((e) => e.id === 'simulate')!;
const SIMULATE_PRICE = BigInt(atomicPrice(orderPriceUsd(SIMULATE)));

/** The real token scanner, failing while `failing` is set (an RPC outage). */
let failing = false;
const tokenScanner: Scanner = (subject, ctx) => {
  if (failing) throw new ScanFailedError('RPC unreachable');
  return SCANNERS.token(subject, ctx);
};

describe('the MCP endpoint POST /mcp, paid with the x402 MCP transport', () => {
  let sandbox: PaidSandbox;
  let mcp: Client;
  let payments: x402Client;
  let simulations: SimulationScenario[];

  const callScan = (mint: string, payment?: PaymentPayload) =>
    mcp.callTool({
      name: 'scan_token',
      arguments: { mint },
      ...(payment ? { _meta: { 'x402/payment': payment } } : {}),
    }) as Promise<CallToolResult>;

  /** The offer an unpaid call answers, and a payment for it built by the official client. */
  async function payFor(mint: string) {
    const offer = await callScan(mint);
    assert.equal(offer.isError, true);
    const required = offer.structuredContent as unknown as PaymentRequired;
    return { offer, payment: await payments.createPaymentPayload(required) };
  }

  before(async () => {
    sandbox = await startPaidSandbox({}, { mode: selling({ ...SCANNERS, token: tokenScanner }) });
    payments = new x402Client().register(
      CAIP2,
      new ExactSvmScheme(sandbox.payer, { rpcUrl: sandbox.rpcServer.url }),
    );
    simulations = await simulationsOn(sandbox);
    mcp = new Client({ name: 'mcp-http-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${sandbox.url}/mcp`)));
  });
  after(async () => {
    await mcp?.close();
    await sandbox?.close();
  });

  it('lists one tool per paid endpoint, with its price, description and parameter schema from the catalog', async () => {
    const { tools } = await mcp.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [...TOOL_ENDPOINTS.map(toolName), LIST_TOOL].sort());
    assert.deepEqual(TOOL_ENDPOINTS.map(toolName), [
      'scan_pumpfun',
      'scan_token',
      'scan_wallet',
      'verify_tx',
      'scan_program',
      'simulate_tx',
      'watch_subject',
      'scan_batch',
    ]);
    for (const endpoint of GET_ENDPOINTS) {
      const tool = tools.find((t) => t.name === toolName(endpoint))!;
      assert.ok(tool.description?.includes(`${endpoint.price.usd.toFixed(2)} USDC per call`), tool.name);
      assert.ok(tool.description?.includes(endpoint.description), tool.name);
      const { name, description, example } = endpoint.param;
      assert.deepEqual(tool.inputSchema.required, [name]);
      const property = tool.inputSchema.properties?.[name] as Record<string, unknown>;
      assert.equal(property.type, 'string');
      assert.equal(property.description, description);
      assert.deepEqual(property.examples, [example]);
      assert.equal(property.pattern, '^[1-9A-HJ-NP-Za-km-z]+$');
    }
    // The POST endpoint's tool takes its body's one field: the base64 wire transaction.
    const simulate = tools.find((t) => t.name === 'simulate_tx')!;
    assert.ok(simulate.description?.includes('0.05 USDC per call'), simulate.description);
    assert.ok(simulate.description?.includes(SIMULATE.description));
    assert.deepEqual(simulate.inputSchema.required, ['transaction']);
    const transaction = simulate.inputSchema.properties?.transaction as Record<string, unknown>;
    assert.equal(transaction.type, 'string');
    assert.equal(transaction.contentEncoding, 'base64');
    assert.deepEqual(transaction.examples, [SIMULATE.body.example.transaction]);
    const list = await mcp.callTool({ name: LIST_TOOL });
    const listed = (
      list.structuredContent as { endpoints: { tool: string; method: string; price_usd: number }[] }
    ).endpoints;
    assert.deepEqual(
      listed.map((e) => [e.tool, e.method, e.price_usd]),
      TOOL_ENDPOINTS.map((e) => [toolName(e), e.method, listedPrice(e).usd]),
    );
  });

  it('answers an unpaid call with the same v2 offer the HTTP 402 carries, in both forms the spec asks for', async () => {
    const before = await sandbox.balances();
    const offer = await callScan(USDC_MINT);
    assert.equal(offer.isError, true);
    const required = offer.structuredContent as Record<string, any>;
    const content = offer.content as { type: string; text: string }[];
    assert.deepEqual(JSON.parse(content[0]!.text), required, 'content[0].text is the same PaymentRequired');
    assert.equal(required.x402Version, 2);
    assert.equal(required.resource.url, sandbox.url + concretePath(TOKEN, USDC_MINT));
    assert.equal(required.accepts[0].amount, atomicPrice(TOKEN.price.usd));
    assert.equal(required.accepts[0].payTo, sandbox.payTo);
    assert.equal(typeof required.accepts[0].extra.feePayer, 'string');

    const http = await fetch(sandbox.url + concretePath(TOKEN, USDC_MINT));
    assert.equal(http.status, 402);
    assert.deepEqual(required, decodePaymentRequiredHeader(http.headers.get('payment-required')!));
    assert.deepEqual(await sandbox.balances(), before);
  });

  it('pays through _meta["x402/payment"]: a ScanResult, its settlement in _meta, and exactly the price moved', async () => {
    const before = await sandbox.balances();
    const { payment } = await payFor(USDC_MINT);
    const paid = await callScan(USDC_MINT, payment);
    assert.notEqual(paid.isError, true, JSON.stringify(paid.content));
    const result = ScanResultSchema.parse(paid.structuredContent);
    assert.ok(result.risk_score >= 0 && result.risk_score <= 1);
    assert.match(result.request_id ?? '', /^[0-9a-f-]{36}$/);
    assert.deepEqual(JSON.parse((paid.content as { text: string }[])[0]!.text), paid.structuredContent);
    const receipt = paid._meta?.['x402/payment-response'] as Record<string, any>;
    assert.equal(receipt.success, true);
    assert.equal(receipt.payer, sandbox.payer.address);
    assert.equal(receipt.network, CAIP2);
    assert.ok(sandbox.chain.transaction(receipt.transaction), 'the settlement is on chain');
    assert.deepEqual(await sandbox.balances(), {
      payer: before.payer - PRICE,
      payTo: before.payTo + PRICE,
    });

    // The same payment with the same arguments: the stored result, nothing charged again.
    const replayed = await callScan(USDC_MINT, payment);
    assert.deepEqual(replayed.structuredContent, paid.structuredContent);
    assert.deepEqual(replayed._meta?.['x402/payment-response'], receipt);
    // The resource is the endpoint's URL: over HTTP the same payment gets the same result too.
    const headers = new x402HTTPClient(payments).encodePaymentSignatureHeader(payment);
    const http = await fetch(sandbox.url + concretePath(TOKEN, USDC_MINT), { headers });
    assert.equal(http.status, 200);
    assert.deepEqual(await http.json(), paid.structuredContent);

    // The same payment for another subject buys nothing.
    const other = await callScan(sandbox.payTo, payment);
    assert.equal(other.isError, true);
    assert.match((other.structuredContent as { error: string }).error, /^payment_used: /);
    assert.equal((other.structuredContent as { x402Version: number }).x402Version, 2);
    assert.deepEqual(await sandbox.balances(), {
      payer: before.payer - PRICE,
      payTo: before.payTo + PRICE,
    });
  });

  it('refuses a malformed mint before the payment is looked at: nothing claimed, nothing charged', async () => {
    const before = await sandbox.balances();
    const { payment } = await payFor(sandbox.payTo);
    const bad = await callScan('not-a-mint-0OIl', payment);
    assert.equal(bad.isError, true);
    const body = bad.structuredContent as { error: string; message: string; parameter: string };
    assert.equal(body.error, 'invalid_input');
    assert.equal(body.parameter, 'mint');
    assert.match(
      body.message,
      /^mint must be a base58 Solana address \(32 bytes\); .*outside the base58 alphabet/,
    );
    assert.deepEqual(await sandbox.balances(), before);

    // The refused call claimed nothing: the same payment still buys the subject it was made for.
    const paid = await callScan(sandbox.payTo, payment);
    assert.notEqual(paid.isError, true, JSON.stringify(paid.content));
    assert.deepEqual(await sandbox.balances(), {
      payer: before.payer - PRICE,
      payTo: before.payTo + PRICE,
    });
  });

  it('a failed scan is an error result and settles nothing; the same payment then buys the result', async () => {
    const subject = sandbox.usdcAuthority.address;
    const { payment } = await payFor(subject);
    const before = await sandbox.balances();
    failing = true;
    try {
      const failed = await callScan(subject, payment);
      assert.equal(failed.isError, true);
      assert.equal((failed.structuredContent as { error: string }).error, 'scan_failed');
      assert.equal(failed._meta?.['x402/payment-response'], undefined);
      assert.deepEqual(await sandbox.balances(), before);
    } finally {
      failing = false;
    }
    const paid = await callScan(subject, payment);
    assert.notEqual(paid.isError, true, JSON.stringify(paid.content));
    assert.deepEqual(await sandbox.balances(), { payer: before.payer - PRICE, payTo: before.payTo + PRICE });
  });

  it('refuses a payment that is no PaymentPayload, and one for another price, without charging', async (t) => {
    const before = await sandbox.balances();
    const junk = await mcp.callTool({
      name: 'scan_token',
      arguments: { mint: USDC_MINT },
      _meta: { 'x402/payment': 42 },
    });
    assert.equal(junk.isError, true);
    assert.match(
      (junk.structuredContent as { error: string }).error,
      /must be an x402 PaymentPayload object/,
    );
    // A payment made for the wallet scan (0.02 USDC) does not buy a token scan (0.30).
    const walletOffer = await mcp.callTool({ name: 'scan_wallet', arguments: { address: sandbox.payTo } });
    const cheap = await payments.createPaymentPayload(
      walletOffer.structuredContent as unknown as PaymentRequired,
    );
    const wrong = await callScan(USDC_MINT, cheap);
    assert.equal(wrong.isError, true);
    assert.match(
      (wrong.structuredContent as { error: string }).error,
      /amount 20000 is not the price 300000/,
    );
    assert.deepEqual(await sandbox.balances(), before);

    // Measured, not asserted: an unpaid offer over MCP and over HTTP in this same run.
    const rounds = 30;
    let started = performance.now();
    for (let i = 0; i < rounds; i++) await callScan(USDC_MINT);
    const mcpMs = (performance.now() - started) / rounds;
    started = performance.now();
    for (let i = 0; i < rounds; i++) await (await fetch(sandbox.url + concretePath(TOKEN, USDC_MINT))).text();
    const httpMs = (performance.now() - started) / rounds;
    t.diagnostic(`unpaid offer: MCP tools/call ${mcpMs.toFixed(2)} ms, HTTP GET 402 ${httpMs.toFixed(2)} ms`);
  });

  const named = (name: string) => simulations.find((s) => s.name === name)!;
  const callSimulate = (transaction: string, payment?: PaymentPayload) =>
    mcp.callTool({
      name: 'simulate_tx',
      arguments: { transaction },
      ...(payment ? { _meta: { 'x402/payment': payment } } : {}),
    }) as Promise<CallToolResult>;

  it('simulate_tx: the offer names /simulate/tx at 0.05 USDC; paid, the USDC transfer moves exactly its amounts', async () => {
    const s = named('sim:usdc-transfer');
    const offer = await callSimulate(s.transaction);
    assert.equal(offer.isError, true);
    const required = offer.structuredContent as unknown as PaymentRequired;
    assert.equal(required.resource.url, `${sandbox.url}/simulate/tx`);
    assert.equal(required.accepts[0]!.amount, String(SIMULATE_PRICE));
    const payment = await payments.createPaymentPayload(required);
    const before = await sandbox.balances();

    const paid = await callSimulate(s.transaction, payment);
    assert.notEqual(paid.isError, true, JSON.stringify(paid.content));
    const result = ScanResultSchema.parse(paid.structuredContent);
    assert.deepEqual(result.flags, []);
    const changes = (
      result.evidence as { token_changes: { owner: string; mint: string; change: string }[] }
    ).token_changes.map(({ owner, mint, change }) => ({ owner, mint, change }));
    const byChange = (a: { change: string }, b: { change: string }) => a.change.localeCompare(b.change);
    assert.deepEqual(changes.sort(byChange), [...s.expect.tokenChanges!].sort(byChange));
    const receipt = paid._meta?.['x402/payment-response'] as Record<string, any>;
    assert.equal(receipt.success, true);
    const charged = { payer: before.payer - SIMULATE_PRICE, payTo: before.payTo + SIMULATE_PRICE };
    assert.deepEqual(await sandbox.balances(), charged);

    // The same payment with the same transaction: the stored result, on MCP and on HTTP alike.
    const replayed = await callSimulate(s.transaction, payment);
    assert.deepEqual(replayed.structuredContent, paid.structuredContent);
    assert.deepEqual(replayed._meta?.['x402/payment-response'], receipt);
    const headers = new x402HTTPClient(payments).encodePaymentSignatureHeader(payment);
    const http = await fetch(`${sandbox.url}/simulate/tx`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ transaction: s.transaction }),
    });
    assert.equal(http.status, 200);
    assert.deepEqual(await http.json(), paid.structuredContent);

    // The same payment with another transaction buys nothing.
    const other = await callSimulate(named('sim:approve-drain').transaction, payment);
    assert.equal(other.isError, true);
    assert.match(
      (other.structuredContent as { error: string }).error,
      /^payment_used: this payment already paid for \/simulate\/tx \(transaction sha256 [0-9a-f]{64}\)/,
    );
    assert.deepEqual(await sandbox.balances(), charged);
  });

  it('simulate_tx refuses a malformed transaction before the payment is looked at, as the HTTP 400 does', async () => {
    const s = named('sim:approve-drain');
    const offer = await callSimulate(s.transaction);
    const payment = await payments.createPaymentPayload(
      offer.structuredContent as unknown as PaymentRequired,
    );
    const before = await sandbox.balances();
    for (const [transaction, reason] of [
      ['%%%', /^transaction is not base64/],
      ['', /^transaction must be a non-empty base64 string/],
      [Buffer.alloc(1300, 1).toString('base64'), /at most 1232 bytes/],
      [Buffer.alloc(64, 1).toString('base64'), /^transaction is not a transaction: /],
    ] as const) {
      for (const presented of [undefined, payment]) {
        const bad = await callSimulate(transaction, presented);
        assert.equal(bad.isError, true);
        const body = bad.structuredContent as { error: string; message: string; parameter: string };
        assert.equal(body.error, 'invalid_input', JSON.stringify(body));
        assert.equal(body.parameter, 'transaction');
        assert.match(body.message, reason);
      }
    }
    assert.deepEqual(await sandbox.balances(), before, 'nothing was charged');
    // The payment was never claimed: it still buys the transaction it was made for.
    const paid = await callSimulate(s.transaction, payment);
    assert.notEqual(paid.isError, true, JSON.stringify(paid.content));
    assert.deepEqual((paid.structuredContent as { flags: string[] }).flags, s.expect.flags);
    assert.deepEqual(await sandbox.balances(), {
      payer: before.payer - SIMULATE_PRICE,
      payTo: before.payTo + SIMULATE_PRICE,
    });
  });
});
