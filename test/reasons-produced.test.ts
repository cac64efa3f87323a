/**
 * Every reason in the table (src/reasons.ts) is one the service gives, and every body it gives
 * names its code in `reason`: the 402 body and the v2 PAYMENT-REQUIRED header's object, every
 * error body, and an MCP tool result's `structuredContent`.
 *
 * The reasons a request alone reaches (a bad input, a path that does not exist, a payment the
 * door will not take) are driven here against the real service. The rest need a chain, a
 * facilitator or a fault (a store down, a scan failing, a full service); each is named with the
 * test file that drives it and compares its code, and the last test checks that file does.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MAX_TRANSACTION_BYTES } from '../src/catalog.js';
import { REASONS, type ReasonCode } from '../src/reasons.js';
import { type FacilitatorStub, startFacilitatorStub } from './helpers/facilitator-stub.js';
import { errorCode, refusalCode } from './helpers/reason-code.js';
import { startTestService, TEST_FEE_PAYER, type TestService } from './helpers/service.js';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const WEBHOOK = 'https://hooks.example.com/risk';

/** The codes this file saw the service give. */
const seen = new Set<ReasonCode>();

/** The v2 PAYMENT-REQUIRED header's object. */
const headerObject = (res: Response) =>
  JSON.parse(Buffer.from(res.headers.get('payment-required') ?? '', 'base64').toString('utf8'));

/**
 * The code an answer names, checked against its words: a 402's in its body and in its v2 header
 * (the same code), an error's in its body.
 */
async function codeOf(res: Response): Promise<ReasonCode> {
  const text = await res.text();
  let code: ReasonCode;
  if (res.status === 402) {
    code = refusalCode(headerObject(res));
    if (text !== '') assert.equal(refusalCode(JSON.parse(text)), code, 'the body names the same code');
  } else {
    code = errorCode(res.status, JSON.parse(text));
  }
  seen.add(code);
  return code;
}

/** The code a tool result names in its `structuredContent`: a 402's offer, or an error body. */
function toolCode(result: CallToolResult, status: number): ReasonCode {
  assert.equal(result.isError, true);
  const content = result.structuredContent as Record<string, unknown>;
  const code = status === 402 ? refusalCode(content) : errorCode(status, content);
  seen.add(code);
  return code;
}

let stub: FacilitatorStub;
let svc: TestService;
let mcp: Client;

before(async () => {
  stub = await startFacilitatorStub(TEST_FEE_PAYER);
  svc = await startTestService({ FACILITATOR_URLS: stub.url });
  mcp = new Client({ name: 'reasons-test', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`)));
});

after(async () => {
  await mcp?.close();
  await svc?.close();
  await stub?.close();
});

const get = (path: string, init: RequestInit = {}) => fetch(`${svc.url}${path}`, init);
const post = (path: string, body: string) =>
  fetch(`${svc.url}${path}`, { method: 'POST', body, headers: { 'Content-Type': 'application/json' } });
const base64Of = (bytes: number) => Buffer.alloc(bytes, 1).toString('base64');

describe('what a request alone reaches, each answer naming its code', () => {
  it('402: an offer, and the payments the door will not take', async () => {
    assert.equal(await codeOf(await get(`/scan/token/${USDC}`)), 'payment_required');
    const order = { kind: 'wallet', subject: USDC, webhook: WEBHOOK, hours: 2 };
    assert.equal(await codeOf(await post('/watch', JSON.stringify(order))), 'payment_required_order');
    const paying = { headers: { 'X-PAYMENT': 'eyJ4NDAyVmVyc2lvbiI6MX0=' } };
    assert.equal(await codeOf(await get('/scan/token/{mint}', paying)), 'payment_at_template');
    assert.equal(
      await codeOf(await get(`/scan/token/${USDC}`, { ...paying, method: 'HEAD' })),
      'payment_with_head',
    );
    // This service makes offers only: a payment is refused before it is read.
    assert.equal(await codeOf(await get(`/scan/token/${USDC}`, paying)), 'not_taking_payments');
  });

  it('400: a subject that is not one, or a path without it', async () => {
    assert.equal(await codeOf(await get('/scan/token/0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl')), 'base58_alphabet');
    assert.equal(await codeOf(await get('/scan/token/abc')), 'base58_length');
    assert.equal(await codeOf(await get('/scan/token')), 'parameter_missing');
  });

  it('400: a body that is not what its endpoint reads', async () => {
    const cases: [string, ReasonCode][] = [
      ['nope', 'body_not_json'],
      ['[1]', 'body_not_object'],
      ['{"transaction": "AQ==", "fee": 1}', 'body_fields_unknown'],
      ['{"transaction": ""}', 'transaction_missing'],
      ['{"transaction": "!!!!"}', 'transaction_not_base64'],
      [`{"transaction": "${base64Of(MAX_TRANSACTION_BYTES + 1)}"}`, 'transaction_too_large'],
      ['{"transaction": "AQID"}', 'transaction_malformed'],
      [`{"transaction": "${'A'.repeat(64 * 1024)}"}`, 'body_too_large'],
    ];
    for (const [body, code] of cases)
      assert.equal(await codeOf(await post('/simulate/tx', body)), code, body);
    assert.equal(await codeOf(await post('/watch', '{"kind": "wallet"}')), 'body_fields_invalid');
  });

  it('400: a batch naming the items at fault (its kind, its size, each malformed address)', async () => {
    const cases: [unknown, ReasonCode][] = [
      [{ kind: 'tx', subjects: [USDC] }, 'batch_kind_unknown'],
      [{ kind: 'token', subjects: [] }, 'batch_size'],
      [{ kind: 'token', subjects: Array(26).fill(USDC) }, 'batch_size'],
      [{ kind: 'token', subjects: [USDC, 'abc'] }, 'batch_subjects_invalid'],
    ];
    for (const [body, code] of cases)
      assert.equal(await codeOf(await post('/scan/batch', JSON.stringify(body))), code, JSON.stringify(body));
    const tool = (args: Record<string, unknown>) =>
      mcp.callTool({ name: 'scan_batch', arguments: args }) as Promise<CallToolResult>;
    assert.equal(
      toolCode(await tool({ kind: 'wallet', subjects: ['0OIl', USDC] }), 400),
      'batch_subjects_invalid',
    );
  });

  it('404 and 405: what is not served, or not so', async () => {
    assert.equal(await codeOf(await get('/nope')), 'endpoint_not_found');
    assert.equal(await codeOf(await get('/docs/assets/nope.js')), 'docs_asset_not_found');
    assert.equal(await codeOf(await get(`/scan/token/${USDC}`, { method: 'POST' })), 'method_not_allowed');
  });

  it('over MCP: a refused tool call names the same code in its structuredContent', async () => {
    const call = (mint: string, meta?: Record<string, unknown>) =>
      mcp.callTool({
        name: 'scan_token',
        arguments: { mint },
        ...(meta ? { _meta: meta } : {}),
      }) as Promise<CallToolResult>;
    assert.equal(toolCode(await call(USDC), 402), 'payment_required');
    assert.equal(toolCode(await call(USDC, { 'x402/payment': 'eyJ4In0=' }), 402), 'not_taking_payments');
    assert.equal(toolCode(await call('abc'), 400), 'base58_length');
    assert.equal(toolCode(await call(''), 400), 'base58_empty');
  });
});

/**
 * The reasons only a chain, a facilitator or a fault reaches, and the test file that drives each
 * and compares its code (through test/helpers/reason-code.ts, or the outcome's code).
 */
const SHOWN_ELSEWHERE: Readonly<Partial<Record<ReasonCode, string>>> = {
  // 402: a payment refused after it was read, on the sandbox chain (or the gate with fakes).
  payment_unavailable: 'test/server/degraded.test.ts',
  payment_meta_malformed: 'test/door/paid-door.test.ts',
  endpoint_unavailable: 'test/e2e/payment-routing.test.ts',
  header_too_large: 'test/e2e/payment-attacks.test.ts',
  header_not_base64_json: 'test/e2e/payment-attacks.test.ts',
  version_unsupported: 'test/e2e/payment-attacks.test.ts',
  payload_malformed: 'test/x402/headers.test.ts',
  scheme_not_accepted: 'test/e2e/payment-attacks.test.ts',
  network_not_accepted: 'test/e2e/payment-attacks.test.ts',
  amount_not_price: 'test/e2e/payment-attacks.test.ts',
  asset_not_usdc: 'test/e2e/payment-attacks.test.ts',
  pay_to_not_ours: 'test/e2e/payment-attacks.test.ts',
  fee_payer_not_ours: 'test/e2e/payment-attacks.test.ts',
  compute_budget_empty: 'test/x402/payment-transaction.test.ts',
  compute_budget_not_allowed: 'test/x402/payment-transaction.test.ts',
  compute_budget_malformed: 'test/x402/payment-transaction.test.ts',
  compute_budget_repeated: 'test/x402/payment-transaction.test.ts',
  compute_price_too_high: 'test/x402/payment-transaction.test.ts',
  compute_limit_too_high: 'test/x402/payment-transaction.test.ts',
  compute_limit_missing: 'test/x402/payment-transaction.test.ts',
  transfer_asset: 'test/e2e/payment-attacks.test.ts',
  transfer_destination: 'test/e2e/payment-attacks.test.ts',
  transfer_amount: 'test/e2e/payment-attacks.test.ts',
  signature_missing: 'test/e2e/payment-attacks.test.ts',
  signature_invalid: 'test/e2e/payment-attacks.test.ts',
  transaction_undecodable: 'test/x402/payment-transaction.test.ts',
  transaction_version: 'test/x402/payment-transaction.test.ts',
  transaction_lookup_tables: 'test/x402/payment-transaction.test.ts',
  transaction_no_fee_payer: 'test/x402/payment-transaction.test.ts',
  account_missing: 'test/x402/payment-transaction.test.ts',
  program_unexpected: 'test/x402/payment-transaction.test.ts',
  token_instruction_not_transfer: 'test/x402/payment-transaction.test.ts',
  transfer_accounts_missing: 'test/x402/payment-transaction.test.ts',
  transfer_count: 'test/x402/payment-transaction.test.ts',
  fee_payer_pays: 'test/x402/payment-transaction.test.ts',
  fee_payer_unmanaged: 'test/x402/paid-call.test.ts',
  // 402: the claim, and what the facilitator and the chain say.
  payment_in_use: 'test/e2e/payment-attacks.test.ts',
  payment_rechecked_elsewhere: 'test/x402/paid-call.test.ts',
  payment_taken_over: 'test/x402/paid-call.test.ts',
  payment_paid_for_another: 'test/e2e/payment-attacks.test.ts',
  payment_settling_for_another: 'test/e2e/payment-faults.test.ts',
  payment_settled_elsewhere: 'test/e2e/payment-instances.test.ts',
  verify_unavailable: 'test/e2e/facilitator-faults.test.ts',
  payment_refused: 'test/e2e/payment-unfunded.test.ts',
  settlement_failed: 'test/e2e/payment-faults.test.ts',
  payment_not_landed: 'test/e2e/facilitator-faults.test.ts',
  settlement_unconfirmed: 'test/e2e/facilitator-faults.test.ts',
  sale_unrecorded: 'test/x402/paid-call.test.ts',
  // 400 of a watch's webhook (a DNS look before payment).
  webhook_refused: 'test/server/watch-route.test.ts',
  // 400, 408, 431, 405 of requests node:http cannot hand to the app: raw sockets.
  http_unparsable: 'test/server/listen.test.ts',
  host_missing: 'test/server/listen.test.ts',
  host_invalid: 'test/server/listen.test.ts',
  host_too_long: 'test/server/listen.test.ts',
  path_backslash: 'test/server/listen.test.ts',
  target_not_path: 'test/server/listen.test.ts',
  target_not_absolute: 'test/server/listen.test.ts',
  connect_not_supported: 'test/server/listen.test.ts',
  request_timeout: 'test/server/listen.test.ts',
  uri_too_long: 'test/server/listen.test.ts',
  headers_too_large: 'test/server/listen.test.ts',
  watch_not_found: 'test/server/watch-route.test.ts',
  // 500 and 503: faults injected (a scan failing, a store down, a full service).
  scan_failed: 'test/e2e/payment-faults.test.ts',
  store_unwritable: 'test/e2e/payment-redis-outage.test.ts',
  store_unreadable: 'test/e2e/payment-redis-outage.test.ts',
  unexpected_error: 'test/door/paid-door.test.ts',
  inflight: 'test/e2e/shedding.test.ts',
  event_loop: 'test/door/shedding.test.ts',
  shutting_down: 'test/e2e/shedding.test.ts',
  check_unavailable: 'test/e2e/watch-paid-money.test.ts',
  webhook_check_timeout: 'test/watch/door/fulfil-screen.test.ts',
  busy: 'test/watch/door/fulfil-screen.test.ts',
  subject_full: 'test/e2e/watch-paid-money.test.ts',
  service_full: 'test/server/watch-route.test.ts',
  result_not_handed_over: 'test/door/paid-door.test.ts',
  watch_not_started: 'test/e2e/watch-paid-money.test.ts',
  batch_failed: 'test/e2e/batch-paid.test.ts',
};

describe('the reasons table, walked', () => {
  it('every code is given by the service: here, or by the named test that compares it', () => {
    const missing: string[] = [];
    for (const code of Object.keys(REASONS) as ReasonCode[]) {
      const file = SHOWN_ELSEWHERE[code];
      const shown =
        seen.has(code) || (file !== undefined && readFileSync(file, 'utf8').includes(`'${code}'`));
      if (!shown) missing.push(`${code}: ${file ?? 'no test gives it'}`);
    }
    assert.deepEqual(missing, []);
  });
});
