/**
 * Property-based fuzzing of the real service (fast-check): path parameters of every paid
 * endpoint, query strings, methods and payment headers, generated at random. Whatever comes in:
 * never a 5xx, never a ScanResult (none of these payments is real, so never a 200), never a
 * stack trace, always JSON (but 204 / 308 / HEAD) with an X-Request-Id, and the server stays up.
 * A failure prints its seed and the shrunk counterexample; rerun it with FUZZ_SEED=<seed>.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { generateKeyPairSigner } from '@solana/kit';
import fc from 'fast-check';
import { PAID_ENDPOINTS, POST_ENDPOINTS } from '../../src/catalog.js';
import { selling } from '../../src/service/index.js';
import { type FacilitatorStub, startFacilitatorStub } from '../helpers/facilitator-stub.js';
import { offlinePaymentTransaction, v2PaymentHeader } from '../helpers/offline-payment.js';
import { probeScanners } from '../helpers/probe-scanner.js';
import { startTestService, TEST_FEE_PAYER, TEST_PAY_TO, type TestService } from '../helpers/service.js';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const SEED = process.env.FUZZ_SEED === undefined ? Date.now() % 0x7fffffff : Number(process.env.FUZZ_SEED);
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const PREFIXES = PAID_ENDPOINTS.map((e) => e.path.replace(/\{\w+\}$/, ''));
/** Methods fetch refuses to send (CONNECT, TRACE, TRACK) go through the raw-socket property. */
const FETCH_FORBIDDEN = new Set(['CONNECT', 'TRACE', 'TRACK']);

interface Answer {
  readonly method: string;
  readonly status: number;
  readonly header: (name: string) => string | null;
  readonly body: string;
}

/** The properties every answer to bad input must have. */
function check(answer: Answer, what: string): void {
  const { status, body } = answer;
  const where = `${what} → ${status} ${body.slice(0, 300)}`;
  assert.ok(status < 500, `5xx from bad input: ${where}`);
  assert.notEqual(status, 200, `200 without a real payment: ${where}`);
  assert.ok(!/"risk_score"\s*:\s*[\d.]/.test(body), `a ScanResult: ${where}`);
  assert.ok(!/^\s+at /m.test(body) && !/^\w*Error:/m.test(body), `a stack trace: ${where}`);
  assert.match(answer.header('x-request-id') ?? '', /^[0-9a-f-]{36}$/, `no X-Request-Id: ${where}`);
  if (status !== 204 && status !== 308 && answer.method !== 'HEAD') {
    assert.match(answer.header('content-type') ?? '', /application\/json/, `not JSON: ${where}`);
    assert.doesNotThrow(() => JSON.parse(body), `body not JSON: ${where}`);
  }
}

const base58 = (min: number, max: number) =>
  fc.array(fc.constantFrom(...BASE58), { minLength: min, maxLength: max }).map((cs) => cs.join(''));

/** A path parameter as it goes on the wire (already percent-encoded where needed). */
const pathParam = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 60 }).map(encodeURIComponent),
  fc.string({ unit: 'binary', maxLength: 40 }).map(encodeURIComponent),
  fc
    .array(
      fc.oneof(fc.constantFrom('%', '%zz', '%00', '%2F', '%2e%2e', '%C0%AF', '%FF', '%E2%82'), base58(0, 3)),
      {
        maxLength: 10,
      },
    )
    .map((parts) => parts.join('')),
  base58(1, 100),
  base58(43, 44).map((s) => `${s}${s.slice(0, 1)}`),
  fc.constantFrom(USDC, TEST_PAY_TO, TEST_FEE_PAYER, `${USDC}/`, `${USDC}/x`, ''),
  fc.integer({ min: 100, max: 2100 }).map((n) => 'A'.repeat(n)),
);

const queryString = fc.option(
  fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => `?${encodeURIComponent(s)}`),
    fc
      .dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 20 }))
      .map((d) => `?${new URLSearchParams(d)}`),
    fc.constantFrom('?', '??', '?a=%zz', '?x402=1&payment=1'),
  ),
  { nil: '' },
);

const method = fc.oneof(
  fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'),
  fc.stringMatching(/^[A-Za-z!#$%&'*+.^_`|~-]{1,12}$/).filter((m) => !FETCH_FORBIDDEN.has(m.toUpperCase())),
);

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

/** Sets `path` in a copy of `value` (deleting it for undefined). */
function mutate(value: Record<string, any>, path: readonly string[], to: unknown): Record<string, any> {
  const copy = structuredClone(value);
  let at: any = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof at[key] !== 'object' || at[key] === null) at[key] = {};
    at = at[key];
  }
  const last = path[path.length - 1]!;
  if (to === undefined) delete at[last];
  else at[last] = to;
  return copy;
}

const FIELDS: readonly (readonly string[])[] = [
  ['x402Version'],
  ['accepted'],
  ['accepted', 'scheme'],
  ['accepted', 'network'],
  ['accepted', 'amount'],
  ['accepted', 'asset'],
  ['accepted', 'payTo'],
  ['accepted', 'maxTimeoutSeconds'],
  ['accepted', 'extra'],
  ['accepted', 'extra', 'feePayer'],
  ['payload'],
  ['payload', 'transaction'],
  ['resource'],
  ['resource', 'url'],
  ['scheme'],
  ['network'],
];

const fieldValue = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 2 }),
  base58(0, 50),
  fc.constantFrom(USDC, TEST_PAY_TO, TEST_FEE_PAYER, 'exact', 'solana', 'solana-mainnet', '300000', 1, 2, -1),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
);

describe('fuzzing the real service', () => {
  let stub: FacilitatorStub;
  let svc: TestService;
  /** Structurally valid payments (v2 and v1 shapes), whose fields the properties mutate. */
  const valid: Record<string, any>[] = [];
  let counted = 0;
  const started = Date.now();

  before(async () => {
    stub = await startFacilitatorStub(TEST_FEE_PAYER);
    svc = await startTestService(
      // No chain: the RPC is a closed port. The stub facilitator verifies nothing.
      { FACILITATOR_URLS: stub.url, PARALLEL_VERIFY: 'false', SOLANA_RPC_URL: 'http://127.0.0.1:9' },
      { mode: selling(probeScanners()) },
    );
    const payer = await generateKeyPairSigner();
    for (const amount of [300_000n, 500_000n]) {
      const transaction = await offlinePaymentTransaction({
        payer,
        payTo: TEST_PAY_TO,
        feePayer: TEST_FEE_PAYER,
        amount,
      });
      const resourceUrl = `${svc.url}/scan/token/${USDC}`;
      const v2 = JSON.parse(
        Buffer.from(
          v2PaymentHeader(transaction, { payTo: TEST_PAY_TO, feePayer: TEST_FEE_PAYER, amount, resourceUrl }),
          'base64',
        ).toString(),
      );
      valid.push(v2, {
        x402Version: 1,
        scheme: 'exact',
        network: 'solana-mainnet',
        payload: { transaction },
      });
    }
    console.log(`fuzz seed ${SEED} (rerun with FUZZ_SEED=${SEED})`);
  });

  after(async () => {
    console.log(`fuzz: ${counted} generated requests in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await svc?.close();
    await stub?.close();
  });

  async function send(
    target: string,
    init: { method: string; headers?: Record<string, string> },
    what: string,
  ): Promise<void> {
    counted++;
    const res = await fetch(svc.url + target, { ...init, redirect: 'manual' });
    const body = await res.text();
    check({ method: init.method, status: res.status, header: (n) => res.headers.get(n), body }, what);
  }

  it('paths, queries and methods: 4500 requests', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PREFIXES), pathParam, queryString, method, async (p, v, q, m) => {
        await send(p + v + q, { method: m }, `${m} ${p}${v}${q}`.slice(0, 400));
      }),
      { numRuns: 4500, seed: SEED },
    );
  });

  it('POST /simulate/tx bodies, random and mutated from the example, paid or not: 1500 requests', {
    timeout: 120_000,
  }, async () => {
    const example = Buffer.from(String(POST_ENDPOINTS[0]!.body.example.transaction), 'base64');
    const body = fc.oneof(
      fc
        .uint8Array({ maxLength: 1400 })
        .map((b) => JSON.stringify({ transaction: Buffer.from(b).toString('base64') })),
      fc.array(fc.nat({ max: 4000 }), { minLength: 1, maxLength: 6 }).map((flips) => {
        const tx = Buffer.from(example);
        for (const f of flips) tx[f % tx.length] = (tx[f % tx.length]! + 1 + (f >> 8)) & 0xff;
        return JSON.stringify({ transaction: tx.toString('base64') });
      }),
      fc
        .nat({ max: example.length })
        .map((n) => JSON.stringify({ transaction: example.subarray(0, n).toString('base64') })),
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 300 }),
    );
    const payment = fc.option(fc.nat().map((i) => b64(valid[i % valid.length]!)));
    await fc.assert(
      fc.asyncProperty(body, payment, async (text, paid) => {
        counted++;
        const res = await fetch(`${svc.url}/simulate/tx`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(paid === null ? {} : { 'PAYMENT-SIGNATURE': paid }),
          },
          body: text,
        });
        const answer = await res.text();
        check(
          { method: 'POST', status: res.status, header: (n) => res.headers.get(n), body: answer },
          `POST /simulate/tx ${text.slice(0, 200)}`,
        );
        assert.ok([400, 402, 503].includes(res.status), `${res.status} for ${text.slice(0, 200)}`);
      }),
      { numRuns: 1500, seed: SEED },
    );
  });

  it('payment headers, random and mutated from valid ones: 4500 requests', { timeout: 120_000 }, async () => {
    const header = fc.oneof(
      fc.uint8Array({ maxLength: 600 }).map((b) => Buffer.from(b).toString('base64')),
      fc.base64String({ maxLength: 200 }),
      fc.jsonValue({ maxDepth: 3 }).map(b64),
      fc.stringMatching(/^[\x20-\x7e]{0,200}$/),
      fc
        .tuple(fc.nat(), fc.constantFrom(...FIELDS), fieldValue)
        .map(([i, path, to]) => b64(mutate(valid[i % valid.length]!, path, to))),
      fc
        .tuple(fc.nat(), fc.array(fc.nat({ max: 2000 }), { minLength: 1, maxLength: 4 }))
        .map(([i, flips]) => {
          const p = valid[i % valid.length]!;
          const tx = Buffer.from(p.payload.transaction, 'base64');
          for (const f of flips) tx[f % tx.length] = (tx[f % tx.length]! + 1 + (f >> 8)) & 0xff;
          return b64(mutate(p, ['payload', 'transaction'], tx.toString('base64')));
        }),
      fc.nat().map((i) => b64(valid[i % valid.length]!)),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PREFIXES),
        fc.oneof(fc.constant(USDC), fc.constant(TEST_PAY_TO), pathParam),
        fc.constantFrom('PAYMENT-SIGNATURE', 'X-PAYMENT', 'both'),
        header,
        fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST'),
        async (p, v, name, value, m) => {
          const headers =
            name === 'both' ? { 'PAYMENT-SIGNATURE': value, 'X-PAYMENT': value } : { [name]: value };
          await send(p + v, { method: m, headers }, `${m} ${p}${v} ${name}: ${value}`.slice(0, 600));
        },
      ),
      { numRuns: 4500, seed: SEED },
    );
  });

  it('raw requests fetch cannot send (any method token, raw bytes in the path): 1000 requests', {
    timeout: 120_000,
  }, async () => {
    const port = Number(new URL(svc.url).port);
    const rawPath = fc.string({ unit: 'grapheme', maxLength: 50 }).map((s) => s.replace(/[\s\p{Cc}]/gu, ''));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PREFIXES),
        rawPath,
        fc.oneof(
          fc.constantFrom('GET', 'TRACE', 'TRACK', 'PROPFIND', 'M-SEARCH', 'get'),
          // CONNECT is left out: node:http hands it to a 'connect' listener, and with none it
          // closes the connection without an answer (see the report).
          fc.stringMatching(/^[A-Z]{1,10}$/).filter((m) => m !== 'CONNECT'),
        ),
        async (p, v, m) => {
          counted++;
          const head = `${m} ${p}${v} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`;
          const answer = await exchange(port, head);
          // A head node:http itself cannot parse is refused with 400 JSON before the app.
          check(answer, `${m} ${p}${v}`);
        },
      ),
      { numRuns: 1000, seed: SEED },
    );
  });

  it('the server is still up', async () => {
    const res = await fetch(`${svc.url}/health`);
    assert.equal(res.status, 200, await res.text());
  });
});

/** Sends `head` as bytes (UTF-8) and reads the answer until the server closes the connection. */
function exchange(port: number, head: string): Promise<Answer & { method: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(Buffer.from(head, 'utf8')));
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers = new Map<string, string>();
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
      }
      let body = text.slice(split + 4);
      // Chunked answers (Hono's): the chunk framing is not the body.
      if (headers.get('transfer-encoding') === 'chunked') {
        body = body.replace(/(^|\r\n)[0-9a-fA-F]+\r\n/g, '').replace(/\r\n$/, '');
      }
      const method = head.slice(0, head.indexOf(' '));
      resolve({
        method,
        status: Number(statusLine?.split(' ')[1]),
        header: (n) => headers.get(n) ?? null,
        body,
      });
    });
  });
}
