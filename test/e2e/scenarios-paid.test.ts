/**
 * Every seeded sandbox subject, scanned the way a customer scans it: `risk-scan sandbox`'s own
 * start-up (seeded chain, two facilitators, the real scanners), the payer it writes to disk, the
 * official x402 client, and real HTTP. Each result must carry the flags its scenario was built to
 * show, none of the ones it was built to avoid, and the risk order between subjects must hold.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  appendTransactionMessageInstructions,
  type Blockhash,
  createKeyPairSignerFromBytes,
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
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { ExactSvmScheme } from '@x402/svm';
import { atomicPrice, PAID_ENDPOINTS } from '../../src/catalog.js';
import { parseConfig } from '../../src/config.js';
import type { ScenarioSubject } from '../../src/sandbox/scenarios/index.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/start.js';
import { usdcAccountOf } from '../../src/sandbox/usdc.js';
import { SCANNERS } from '../../src/scans/registry.js';
import { createLogger } from '../../src/server/logger.js';
import { jsonOf } from '../helpers/service.js';

const CAIP2 = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
const PATHS = {
  token: '/scan/token/',
  pumpfun: '/scan/pumpfun/',
  wallet: '/scan/wallet/',
  tx: '/verify/tx/',
  program: '/scan/program/',
} as const;
const PRICE = Object.fromEntries(
  PAID_ENDPOINTS.map((e) => [`${e.path.split('/{')[0]}/`, BigInt(atomicPrice(e.priceUsd))]),
);

interface Expectation {
  readonly path: keyof typeof PATHS;
  readonly subject: string;
  readonly has: readonly string[];
  readonly lacks: readonly string[];
  /** Exactly the `has` flags and nothing else (for subjects built to be clean). */
  readonly only?: true;
}

const AUTHORITY_FLAGS = ['MINT_AUTHORITY_ACTIVE', 'FREEZE_AUTHORITY_ACTIVE'];

const EXPECTATIONS: readonly Expectation[] = [
  // No pool was seeded for it: the one flag is the missing market.
  { path: 'token', subject: 'token:clean', has: ['MARKET_NONE'], lacks: [], only: true },
  {
    path: 'token',
    subject: 'token:authorities-live',
    has: [...AUTHORITY_FLAGS, 'METADATA_MUTABLE'],
    lacks: ['TRUSTED_ISSUER', 'NOT_A_MINT'],
  },
  { path: 'token', subject: 'token:concentrated', has: ['HOLDER_TOP1_HIGH'], lacks: AUTHORITY_FLAGS },
  {
    path: 'token',
    subject: 'token:t22-permanent-delegate',
    has: ['PERMANENT_DELEGATE'],
    lacks: ['TRANSFER_FEE', 'NON_TRANSFERABLE'],
  },
  {
    path: 'token',
    subject: 'token:t22-transfer-fee',
    has: ['TRANSFER_FEE', 'TRANSFER_FEE_AUTHORITY'],
    lacks: ['TRANSFER_FEE_INCREASE_SCHEDULED', 'PERMANENT_DELEGATE'],
  },
  {
    path: 'token',
    subject: 'token:t22-transfer-fee-increase',
    has: ['TRANSFER_FEE', 'TRANSFER_FEE_INCREASE_SCHEDULED'],
    lacks: [],
  },
  {
    path: 'token',
    subject: 'token:t22-transfer-hook',
    has: ['TRANSFER_HOOK_ACTIVE', 'TRANSFER_HOOK_AUTHORITY'],
    lacks: ['TRANSFER_FEE'],
  },
  {
    path: 'token',
    subject: 'token:t22-default-frozen',
    has: ['DEFAULT_STATE_FROZEN', 'FREEZE_AUTHORITY_ACTIVE'],
    lacks: [],
  },
  {
    path: 'token',
    subject: 'token:t22-non-transferable',
    has: ['NON_TRANSFERABLE'],
    lacks: ['PERMANENT_DELEGATE'],
  },
  { path: 'token', subject: 'token:t22-pausable', has: ['TOKEN_PAUSED'], lacks: [] },
  {
    path: 'token',
    subject: 'mainnet:usdt',
    has: [...AUTHORITY_FLAGS, 'TRUSTED_ISSUER'],
    lacks: ['PERMANENT_DELEGATE'],
  },
  {
    path: 'token',
    subject: 'mainnet:pyusd',
    has: ['PERMANENT_DELEGATE', 'CONFIDENTIAL_TRANSFERS', 'TRUSTED_ISSUER'],
    lacks: ['NOT_A_MINT'],
  },
  // Launched hours ago: new (caution), and nothing else wrong with them.
  { path: 'pumpfun', subject: 'pumpfun:curve-active', has: ['TOKEN_NEW'], lacks: [], only: true },
  { path: 'pumpfun', subject: 'pumpfun:graduated', has: ['TOKEN_NEW'], lacks: [], only: true },
  {
    path: 'pumpfun',
    subject: 'pumpfun:serial-latest',
    has: ['CREATOR_SERIAL_LAUNCHER', 'CURVE_EARLY'],
    lacks: ['NOT_PUMPFUN_MINT', ...AUTHORITY_FLAGS],
  },
  {
    path: 'pumpfun',
    subject: 'mainnet:pump-v2-t22-mint-3xM2iMg4',
    has: ['CURVE_EARLY'],
    lacks: ['NOT_PUMPFUN_MINT', ...AUTHORITY_FLAGS],
  },
  { path: 'pumpfun', subject: 'token:clean', has: ['NOT_PUMPFUN_MINT'], lacks: ['NOT_A_MINT'] },
  { path: 'pumpfun', subject: 'wallet:old-active', has: ['NOT_A_MINT'], lacks: [] },
  { path: 'wallet', subject: 'wallet:old-active', has: [], lacks: [], only: true },
  {
    path: 'wallet',
    subject: 'wallet:burner',
    has: ['FUNDED_THEN_DRAINED', 'QUICK_FIRST_ACTION', 'FRESH_WALLET'],
    lacks: ['HIGH_FAILURE_RATE'],
  },
  {
    path: 'wallet',
    subject: 'wallet:high-failure',
    has: ['HIGH_FAILURE_RATE'],
    lacks: ['FUNDED_THEN_DRAINED'],
  },
  { path: 'wallet', subject: 'token:clean', has: ['NOT_A_WALLET'], lacks: [] },
  { path: 'tx', subject: 'tx:success', has: [], lacks: [], only: true },
  { path: 'tx', subject: 'tx:failed-custom-error', has: ['TX_FAILED'], lacks: ['TX_NOT_FOUND'] },
  { path: 'tx', subject: 'tx:high-priority-fee', has: ['TX_HIGH_FEE'], lacks: ['TX_FAILED'] },
  {
    path: 'tx',
    subject: 'tx:large-outflow',
    has: ['TX_SIGNER_LARGE_SOL_OUTFLOW'],
    lacks: ['TX_TOKEN_APPROVE_THIRD_PARTY'],
  },
  {
    path: 'tx',
    subject: 'tx:drainer',
    has: ['TX_TOKEN_APPROVE_THIRD_PARTY', 'TX_TOKEN_ACCOUNT_OWNER_CHANGED'],
    lacks: ['TX_FAILED'],
  },
  {
    path: 'program',
    subject: 'program:immutable',
    has: ['PROGRAM_IMMUTABLE'],
    lacks: ['UPGRADE_AUTHORITY_SINGLE_KEY'],
  },
  {
    path: 'program',
    subject: 'program:single-key',
    has: ['UPGRADE_AUTHORITY_SINGLE_KEY', 'RECENTLY_UPGRADED'],
    lacks: ['PROGRAM_IMMUTABLE'],
  },
  {
    path: 'program',
    subject: 'program:multisig',
    has: ['UPGRADE_AUTHORITY_MULTISIG', 'AUTHORITY_CHANGED_RECENTLY'],
    lacks: ['UPGRADE_AUTHORITY_SINGLE_KEY'],
  },
  { path: 'program', subject: 'mainnet:stakedex', has: ['UPGRADE_AUTHORITY_SINGLE_KEY'], lacks: [] },
  { path: 'program', subject: 'wallet:old-active', has: ['NOT_A_PROGRAM'], lacks: [] },
];

/** A signature nobody ever sent: 64 bytes of 7s. */
const UNKNOWN_SIGNATURE = getBase58Decoder().decode(new Uint8Array(64).fill(7));

describe('every seeded scenario through the paid HTTP path of `risk-scan sandbox`', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scenarios-'));
  let sandbox: RunningSandbox;
  let subjects: ScenarioSubject[];
  let pay: typeof fetch;
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

  before(async () => {
    const config = parseConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      SANDBOX_RPC_PORT: '0',
      SANDBOX_FACILITATOR_PORT: '0',
      SANDBOX_DIR: dir,
      LOG_LEVEL: 'silent',
    });
    sandbox = await startSandbox({
      config,
      log: createLogger('silent'),
      serviceOptions: { scanners: SCANNERS },
    });
    const manifest = JSON.parse(readFileSync(sandbox.files.manifest, 'utf8'));
    subjects = manifest.subjects;
    const payer = await createKeyPairSignerFromBytes(
      new Uint8Array(JSON.parse(readFileSync(sandbox.files.payer, 'utf8'))),
    );
    const client = new x402Client().register(CAIP2, new ExactSvmScheme(payer, { rpcUrl: sandbox.rpc.url }));
    pay = wrapFetchWithPayment(fetch, client);
    usdcBefore = await usdcOf(sandbox.payer);
  });
  after(async () => {
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const e of EXPECTATIONS) {
    const label = e.only
      ? `only ${e.has.join(', ') || 'no flags'}`
      : `${e.has.join(', ') || 'no flags'}${e.lacks.length ? `; not ${e.lacks.join(', ')}` : ''}`;
    it(`${PATHS[e.path]}{${e.subject}} → ${label}`, async () => {
      const body = await scan(e.path, keyOf(find(e.subject)));
      const flags: string[] = body.flags;
      for (const code of e.has) assert.ok(flags.includes(code), `${code} missing from ${flags}`);
      for (const code of e.lacks) assert.ok(!flags.includes(code), `${code} should not be raised: ${flags}`);
      if (e.only) assert.deepEqual(flags, e.has, `expected only ${e.has}: ${body.reasoning}`);
      for (const code of flags) {
        assert.ok(body.evidence.flags?.[code], `${code} carries its evidence`);
      }
      assert.ok(body.risk_score >= 0 && body.risk_score <= 1);
      assert.ok(body.confidence > 0 && body.confidence <= 1);
      assert.equal(body.summary.split(/\.\s/).length, 1, `one sentence: ${body.summary}`);
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
    assert.ok(sandbox.chain.send(new Uint8Array(getTransactionEncoder().encode(signed))).landed);
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
    assert.ok((await risk('mainnet:usdt')) < live);
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

  it('the payer paid exactly one price per delivered result, and nothing else', async () => {
    assert.ok(results.size >= EXPECTATIONS.length);
    assert.equal(await usdcOf(sandbox.payer), usdcBefore - paidTotal);
    assert.equal(await usdcOf(sandbox.payTo), paidTotal);
  });
});
