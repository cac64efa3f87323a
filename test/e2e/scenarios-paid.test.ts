/**
 * Every seeded sandbox subject, scanned the way a customer scans it: `risk-scan sandbox`'s own
 * start-up (seeded chain, two facilitators, the real scanners), the payer it writes to disk, the
 * official x402 client, and real HTTP. The cases come from the sandbox.json that start-up writes:
 * each subject's result must carry the flags its manifest entry says it must (`expect.flags`), none
 * of those it must not (`expect.notFlags`), nothing else when `expect.onlyFlags` is set, and the risk
 * order between subjects must hold. A subject without an entry fails, saying what to add.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  appendTransactionMessageInstructions,
  type Blockhash,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Decoder,
  getSignatureFromTransaction,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { atomicPrice, orderPriceUsd, PAID_ENDPOINTS } from '../../src/catalog.js';
import { parseConfig } from '../../src/config.js';
import type { FlagExpect, ScenarioSubject } from '../../src/sandbox/scenarios/index.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/start.js';
import { usdcAccountOf } from '../../src/sandbox/usdc.js';
import { SCANNERS } from '../../src/scans/registry.js';
import { createLogger } from '../../src/server/logger.js';
import { selling } from '../../src/service/index.js';
import { payingFetch } from '../helpers/customer-sandbox.js';
import { TEST_SNAPSHOT_DIR } from '../helpers/seeded-chain.js';
import { jsonOf } from '../helpers/service.js';

const PATHS = {
  token: '/scan/token/',
  pumpfun: '/scan/pumpfun/',
  wallet: '/scan/wallet/',
  tx: '/verify/tx/',
  program: '/scan/program/',
} as const;
const PRICE = Object.fromEntries(
  PAID_ENDPOINTS.map((e) => [`${e.path.split('/{')[0]}/`, BigInt(atomicPrice(orderPriceUsd(e)))]),
);

interface Expectation {
  readonly has: readonly string[];
  readonly lacks: readonly string[];
  /** Exactly the `has` flags and nothing else (for subjects built to be clean). */
  readonly only?: boolean;
}

/**
 * Scans of a subject at an endpoint of another kind: the answer names the mismatch. (A subject's own
 * kind is held to the manifest's `expect.flags`, `expect.notFlags` and `expect.onlyFlags`.)
 */
const WRONG_ENDPOINT: readonly (Expectation & { path: keyof typeof PATHS; subject: string })[] = [
  { path: 'pumpfun', subject: 'token:clean', has: ['NOT_PUMPFUN_MINT'], lacks: ['NOT_A_MINT'] },
  // A pump.fun coin's launch, read by the generic token scan too (evidence: launch-paid.test.ts).
  {
    path: 'token',
    subject: 'pumpfun:launch-bundled',
    has: ['LAUNCH_BUNDLED', 'LAUNCH_SNIPERS_HOLD', 'LAUNCH_INSIDERS'],
    lacks: ['MINT_AUTHORITY_ACTIVE', 'FREEZE_AUTHORITY_ACTIVE'],
  },
  // /scan/token counts a live pump.fun curve as the coin's market, as /scan/pumpfun does: a $1,000
  // trade on a young curve moves it over 10 % and its round trip loses over 20 %.
  {
    path: 'token',
    subject: 'pumpfun:launch-fair',
    has: ['TOKEN_NEW', 'TRADE_ROUND_TRIP_LOSS_HIGH', 'TRADE_PRICE_IMPACT_HIGH'],
    lacks: ['MARKET_NONE'],
    only: true,
  },
  {
    path: 'token',
    subject: 'pumpfun:curve-active',
    has: ['TOKEN_NEW', 'TRADE_ROUND_TRIP_LOSS_HIGH', 'TRADE_PRICE_IMPACT_HIGH'],
    lacks: ['MARKET_NONE'],
    only: true,
  },

  { path: 'pumpfun', subject: 'wallet:old-active', has: ['NOT_A_MINT'], lacks: [] },
  { path: 'wallet', subject: 'token:clean', has: ['NOT_A_WALLET'], lacks: [] },
  { path: 'program', subject: 'wallet:old-active', has: ['NOT_A_PROGRAM'], lacks: [] },
];

const labelOf = (e: Expectation) =>
  e.only
    ? `only ${e.has.join(', ') || 'no flags'}`
    : `${e.has.join(', ') || 'no flags'}${e.lacks.length ? `; not ${e.lacks.join(', ')}` : ''}`;

/** The subject's own entry, or null when it has none (a scenario added without its flag expectations). */
function expectationOf(s: ScenarioSubject): Expectation | null {
  const { flags, notFlags, onlyFlags } = s.expect as Partial<FlagExpect>;
  if (!Array.isArray(flags) || !Array.isArray(notFlags)) return null;
  return { has: flags, lacks: notFlags, only: onlyFlags === true };
}

/** What a scenario author must add, with what the scan raised as the starting point. */
function missingExpectation(s: ScenarioSubject, raised: readonly string[]): string {
  const where = s.name.startsWith('mainnet:')
    ? 'MAINNET_FLAG_EXPECTATIONS in src/sandbox/scenarios/mainnet-flags.ts'
    : 'its `expect`, where its scenario module in src/sandbox/scenarios/ pushes it onto context.subjects';
  return [
    `${s.name} has no flag expectations in .sandbox/sandbox.json. Add to ${where}:`,
    `  flags: [codes ${PATHS[s.kind]}{${s.name}} must raise], notFlags: [codes it must not raise],`,
    '  and onlyFlags: true when flags is the whole answer.',
    `This scan raised ${JSON.stringify(raised)}: keep the ones the scenario was built to show`,
    `(codes: src/scans/${s.kind}/flags.ts; a code its catalog lacks fails test/sandbox/scenarios/manifest.test.ts).`,
  ].join('\n');
}

/** A signature nobody ever sent: 64 bytes of 7s. */
const UNKNOWN_SIGNATURE = getBase58Decoder().decode(new Uint8Array(64).fill(7));

/**
 * `risk-scan sandbox`'s own start-up, before the tests are declared: they are one per subject of the
 * sandbox.json it writes.
 */
const dir = mkdtempSync(join(tmpdir(), 'scenarios-'));
const sandbox: RunningSandbox = await startSandbox({
  config: parseConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    SANDBOX_RPC_PORT: '0',
    SANDBOX_FACILITATOR_PORT: '0',
    SANDBOX_DIR: dir,
    // The seeded chain restored from the tests' snapshot (seeding it again here was most of the start).
    SANDBOX_SNAPSHOT_DIR: TEST_SNAPSHOT_DIR,
    LOG_LEVEL: 'silent',
    // About answers, not load: a machine busy with other work must not shed these calls (shedding
    // has its own tests in test/e2e/shedding.test.ts).
    SHED_EVENT_LOOP_DELAY_MS: '0',
  }),
  log: createLogger('silent'),
  serviceOptions: { mode: selling(SCANNERS) },
});
const manifest = JSON.parse(readFileSync(sandbox.files.manifest, 'utf8'));
/** Every seeded subject (accounts loaded with --account are the caller's own and carry no expectations). */
const subjects: ScenarioSubject[] = manifest.subjects.filter(
  (s: { name: string }) => !s.name.startsWith('loaded:'),
);

describe('every seeded scenario through the paid HTTP path of `risk-scan sandbox`', () => {
  let pay: typeof fetch;
  /** The decision buckets as /openapi.json publishes them. */
  let buckets: { decision: string; min_score: number }[] = [];
  const decisions = new Set<string>();
  let paidTotal = 0n;
  let usdcBefore = 0n;
  const results = new Map<string, any>();

  const usdcOf = async (owner: string) => {
    const rpcUrl = sandbox.rpc.url;
    const ata = await usdcAccountOf(owner as never);
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getTokenAccountBalance', params: [ata] }),
    });
    return BigInt(((await res.json()) as any).result.value.amount);
  };

  const keyOf = (s: ScenarioSubject) => ('signature' in s ? s.signature : s.address);
  const find = (name: string) => {
    const s = subjects.find((x) => x.name === name);
    assert.ok(s, `the manifest lists ${name}`);
    return s;
  };

  /** Pays for one scan and returns the body; records the price so the balance check can sum them. */
  const scan = async (path: keyof typeof PATHS, key: string) => {
    const memo = `${path}:${key}`;
    if (results.has(memo)) return results.get(memo);
    const res = await pay(sandbox.api.url + PATHS[path] + key);
    const body = await jsonOf(res);
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.ok(res.headers.get('payment-response'), 'a settlement receipt comes with the result');
    paidTotal += PRICE[PATHS[path]]!;
    results.set(memo, body);
    return body;
  };

  /** The flags a result must and must not carry, and what every result carries. */
  const assertAnswer = (body: any, e: Expectation) => {
    const flags: string[] = body.flags;
    for (const code of e.has) assert.ok(flags.includes(code), `${code} missing from ${flags}`);
    for (const code of e.lacks) assert.ok(!flags.includes(code), `${code} should not be raised: ${flags}`);
    if (e.only) assert.deepEqual(flags, e.has, `expected only ${e.has}: ${body.reasoning}`);
    for (const code of flags) {
      assert.ok(body.evidence.flags?.[code], `${code} carries its evidence`);
    }
    assert.ok(body.risk_score >= 0 && body.risk_score <= 1, `risk_score ${body.risk_score} in 0–1`);
    assert.ok(body.confidence > 0 && body.confidence <= 1, `confidence ${body.confidence} in (0, 1]`);
    assert.equal(body.summary.split(/\.\s/).length, 1, `one sentence: ${body.summary}`);
    const published = buckets.filter((b) => body.risk_score >= b.min_score).at(-1)?.decision;
    assert.equal(body.evidence.decision, published, `the published bucket of ${body.risk_score}`);
    decisions.add(body.evidence.decision);
  };

  before(async () => {
    pay = await payingFetch(sandbox);
    buckets = (await jsonOf(await fetch(`${sandbox.api.url}/openapi.json`)))['x-risk-decision'].buckets;
    usdcBefore = await usdcOf(sandbox.payer);
  });
  after(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sandbox.json lists seeded subjects of every kind', () => {
    for (const kind of Object.keys(PATHS)) {
      assert.ok(
        subjects.some((s) => s.kind === kind),
        `a ${kind} subject`,
      );
    }
  });

  for (const s of subjects) {
    const e = expectationOf(s);
    it(`${PATHS[s.kind]}{${s.name}} → ${e ? labelOf(e) : 'its manifest entry'}`, async () => {
      const body = await scan(s.kind, keyOf(s));
      assert.ok(e, missingExpectation(s, body.flags));
      assertAnswer(body, e);
    });
  }

  for (const e of WRONG_ENDPOINT) {
    it(`${PATHS[e.path]}{${e.subject}} → ${labelOf(e)}`, async () => {
      assertAnswer(await scan(e.path, keyOf(find(e.subject))), e);
    });
  }

  it('an unknown signature is an answer, not an error: TX_NOT_FOUND, paid and delivered', async () => {
    const body = await scan('tx', UNKNOWN_SIGNATURE);
    assert.deepEqual(body.flags, ['TX_NOT_FOUND']);
    assert.match(body.recommendation, /not having happened/);
  });

  it('TX_NOT_FOUND is never cached: once the transaction lands, the next paid call finds it', async () => {
    const [sender, recipient] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
    sandbox.chain.setAccount({ address: sender.address, lamports: 1_000_000_000n });
    const { blockhash, lastValidBlockHeight } = sandbox.chain.latestBlockhash();
    const signed = await pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(sender, m),
      (m) =>
        setTransactionMessageLifetimeUsingBlockhash(
          { blockhash: blockhash as Blockhash, lastValidBlockHeight },
          m,
        ),
      (m) =>
        appendTransactionMessageInstructions(
          [getTransferSolInstruction({ source: sender, destination: recipient.address, amount: 1_000_000n })],
          m,
        ),
      (m) => signTransactionMessageWithSigners(m),
    );
    const signature = getSignatureFromTransaction(signed);
    const before = await jsonOf(await pay(`${sandbox.api.url}/verify/tx/${signature}`));
    assert.deepEqual(before.flags, ['TX_NOT_FOUND']);
    const sent = sandbox.chain.send(new Uint8Array(getTransactionEncoder().encode(signed)));
    assert.ok(sent.landed, 'the transfer lands');
    const after = await jsonOf(await pay(`${sandbox.api.url}/verify/tx/${signature}`));
    assert.notEqual(after.request_id, before.request_id, 'a second payment buys a fresh answer');
    assert.ok(!after.flags.includes('TX_NOT_FOUND'), String(after.flags));
    assert.equal(after.evidence.success, true);
    paidTotal += 2n * PRICE['/verify/tx/']!;
  });

  it('scenario facts come back in the evidence exactly as seeded', async () => {
    const failed = find('tx:failed-custom-error') as Extract<ScenarioSubject, { kind: 'tx' }>;
    const tx = await scan('tx', failed.signature);
    assert.equal(tx.evidence.flags.TX_FAILED.custom_code, failed.expect.customErrorCode);
    assert.equal(tx.evidence.fee.total, failed.expect.fee);

    const curve = find('pumpfun:curve-active') as Extract<ScenarioSubject, { kind: 'pumpfun' }>;
    const coin = await scan('pumpfun', curve.address);
    assert.equal(coin.evidence.curve_progress, curve.expect.progressBps / 10_000);
    assert.equal(coin.evidence.graduated, false);
    const graduated = find('pumpfun:graduated') as Extract<ScenarioSubject, { kind: 'pumpfun' }>;
    const grad = await scan('pumpfun', graduated.address);
    assert.equal(grad.evidence.graduated, true);
    assert.equal(grad.evidence.pool, graduated.expect.pool?.address);

    const multisig = find('program:multisig') as Extract<ScenarioSubject, { kind: 'program' }>;
    const program = await scan('program', multisig.address);
    assert.equal(
      program.evidence.flags.UPGRADE_AUTHORITY_MULTISIG.threshold,
      multisig.expect.multisig?.threshold,
    );
  });

  it('risk orders the tokens: clean < live mint authority < permanent delegate or non-transferable', async () => {
    const risk = async (name: string) => (await scan('token', keyOf(find(name)))).risk_score as number;
    const clean = await risk('token:clean');
    const live = await risk('token:authorities-live');
    assert.ok(clean < live, `clean ${clean} < live ${live}`);
    for (const worse of ['token:t22-permanent-delegate', 'token:t22-non-transferable']) {
      const r = await risk(worse);
      assert.ok(live < r, `live ${live} < ${worse} ${r}`);
    }
    // A trusted issuer with live authorities is dampened below an unknown issuer with the same powers.
    const usdt = await risk('mainnet:usdt');
    assert.ok(usdt < live, `usdt ${usdt} < live ${live}`);
  });

  it('risk orders programs (immutable < multisig < single key) and wallets (established < failing < burner)', async () => {
    const program = async (name: string) => (await scan('program', keyOf(find(name)))).risk_score as number;
    const [immutable, multisig, single] = [
      await program('program:immutable'),
      await program('program:multisig'),
      await program('program:single-key'),
    ];
    assert.ok(immutable < multisig && multisig < single, `${immutable} < ${multisig} < ${single}`);
    const wallet = async (name: string) => (await scan('wallet', keyOf(find(name)))).risk_score as number;
    const [old, failing, burner] = [
      await wallet('wallet:old-active'),
      await wallet('wallet:high-failure'),
      await wallet('wallet:burner'),
    ];
    assert.ok(old < failing && failing < burner, `${old} < ${failing} < ${burner}`);
  });

  it('the seeded subjects reach every decision the published table has', () => {
    assert.deepEqual(
      [...decisions].sort(),
      buckets.map((b) => b.decision).sort(),
      'every bucket is shown by some seeded subject',
    );
  });

  it('the payer paid exactly one price per delivered result, and nothing else', async () => {
    // Every assert.ok in this file carries a message: Node builds one for a bare assert.ok by parsing
    // this file's source, and with the start-up at top level that stalled the run instead of failing it.
    const scans = subjects.length + WRONG_ENDPOINT.length;
    assert.ok(results.size >= scans, `${results.size} of ${scans} scans delivered`);
    assert.equal(await usdcOf(sandbox.payer), usdcBefore - paidTotal);
    assert.equal(await usdcOf(sandbox.payTo), paidTotal);
  });
});
