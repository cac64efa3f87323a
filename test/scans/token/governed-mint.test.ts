/**
 * /scan/token on seeded mints whose mint and freeze authority a recognised multisig or DAO
 * holds, built on real mainnet governing accounts (Marinade's Coral multisig, Pyth's SPL
 * Governance): the recommendation names the multisig or DAO and its rules, the score is the
 * single-key twin's, and a forged governance account changes nothing but the RPC bill.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDefaultRpcTransport, createSolanaRpcFromTransport, type RpcTransport } from '@solana/kit';
import type { ScanResult } from '../../../src/contract/schemas.js';
import type { SandboxChain } from '../../../src/sandbox/chain/chain.js';
import { type SandboxRpc, startSandboxRpc } from '../../../src/sandbox/rpc/server.js';
import { type ScenarioManifest, subject } from '../../../src/sandbox/scenarios/index.js';
import { bucketOf } from '../../../src/scans/risk/combine.js';
import { TOKEN_ADVICE } from '../../../src/scans/token/assess.js';
import { scanToken } from '../../../src/scans/token/index.js';
import { countingTransport } from '../../helpers/rpc-transports.js';
import { seededChain } from '../../helpers/seeded-chain.js';

/** Fails the getMultipleAccounts calls that ask for `needle`, as a flaky RPC would. */
function failingReadOf(needle: string, inner: RpcTransport): RpcTransport {
  return (async (request) => {
    const { method, params } = request.payload as { method: string; params: unknown[] };
    if (method === 'getMultipleAccounts' && JSON.stringify(params[0]).includes(needle))
      throw new Error('injected failure');
    return inner(request);
  }) as RpcTransport;
}

interface Scanned {
  result: ScanResult;
  roundTrips: number;
  calls: string[];
}

describe('/scan/token of mints held by a multisig or a DAO (sandbox, real governing accounts)', () => {
  let chain: SandboxChain;
  let server: SandboxRpc;
  let manifest: ScenarioManifest;
  const scanned = new Map<string, Scanned>();

  before(async () => {
    ({ chain, manifest } = await seededChain({ autoAdvance: false }));
    server = await startSandboxRpc({ chain, host: '127.0.0.1', port: 0 });
    for (const name of ['coral', 'realms', 'single-key', 'forged', 'token:authorities-live']) {
      const full = name.startsWith('token:') ? name : `token:governed:${name}`;
      const counter = countingTransport(createDefaultRpcTransport({ url: server.url }));
      const { result } = await scanToken(subject(manifest, 'token', full).address, {
        rpc: createSolanaRpcFromTransport(counter.transport),
        now: Date.now,
      });
      scanned.set(name, { result, roundTrips: counter.roundTrips(), calls: counter.calls });
    }
  });
  after(async () => {
    chain.stop();
    await server.close();
  });

  const get = (name: string) => scanned.get(name)!;

  it('Coral: the recommendation names the 6-of-13 multisig, its powers and what they mean', () => {
    const { result } = get('coral');
    assert.deepEqual(result.flags, get('single-key').result.flags);
    assert.ok(
      result.recommendation.startsWith(
        "A 6-of-13 Coral multisig magr…9Wed holds its mint authority and freeze authority: it can mint more tokens and freeze any holder's balance. No single key can use these powers, but its members acting together can",
      ),
      result.recommendation,
    );
    assert.match(result.summary, /from the powers a 6-of-13 Coral multisig magr…9Wed holds over it/);
    assert.doesNotMatch(result.recommendation, /avoid/i);
    const control = (result.evidence as any).authority_control;
    assert.equal(control.kind, 'coral-multisig');
    assert.equal(control.governing_account, 'magrsHFQxkkioAy45VWnZnFBBdKVdy2ZiRoRGYT9Wed');
    assert.deepEqual(control.authorities, ['551FBXSXdhcRDDkdcb3ThDRg84Mwe5Zs6YjJ1EEoyzBp']);
    assert.equal(control.threshold, 6);
    assert.equal(control.voters, 13);
  });

  it('Realms: the recommendation names the DAO, its vote threshold and voting time', () => {
    const { result } = get('realms');
    assert.deepEqual(result.flags, get('single-key').result.flags);
    assert.ok(
      result.recommendation.startsWith(
        'The Realms DAO "Pyth Governance" (67% yes votes, 7-day voting) holds its mint authority and freeze authority',
      ),
      result.recommendation,
    );
    assert.match(result.recommendation, /its voters acting together can/);
    const control = (result.evidence as any).authority_control;
    assert.equal(control.kind, 'spl-governance');
    assert.equal(control.realm_name, 'Pyth Governance');
  });

  it("the score is the single-key twin's: only the words change", () => {
    const twin = get('single-key').result;
    assert.deepEqual(twin.flags, ['MINT_AUTHORITY_ACTIVE', 'FREEZE_AUTHORITY_ACTIVE', 'MARKET_NONE']);
    assert.equal(twin.recommendation, TOKEN_ADVICE[bucketOf(twin.risk_score)]);
    for (const name of ['coral', 'realms', 'forged']) {
      const { result } = get(name);
      assert.equal(result.risk_score, twin.risk_score, name);
      assert.equal(result.confidence, twin.confidence, name);
      assert.deepEqual(result.flags, twin.flags, name);
    }
  });

  it('a forged governance (its bytes derive another address): the generic warning, nothing named', () => {
    const { result } = get('forged');
    const twin = get('single-key').result;
    assert.equal(result.recommendation, twin.recommendation);
    assert.doesNotMatch(result.recommendation + result.summary, /Pyth|DAO|Realms/);
    assert.equal((result.evidence as any).authority_control, undefined);
  });

  it('round trips: three for each (the third reads the pools); Coral +1 getMultipleAccounts; Realms +2, the realm beside the pools', () => {
    const multiple = (s: Scanned) => s.calls.filter((c) => c === 'getMultipleAccounts').length;
    const keyHeld = get('single-key');
    assert.equal(keyHeld.roundTrips, 3);
    assert.equal(multiple(keyHeld), 3, 'the mint + metadata, then the holders, then the pools');
    assert.equal(get('coral').roundTrips, 3);
    assert.equal(multiple(get('coral')), 4, 'plus the authority and its multisig, beside the holders');
    assert.equal(get('realms').roundTrips, 3);
    assert.equal(multiple(get('realms')), 5, 'plus the realm, for the DAO name, beside the pools');
    assert.equal(get('forged').roundTrips, 3, 'a forged governance is not verified: no realm read');
    assert.equal(multiple(get('forged')), 4);
  });

  it('the governing account cannot be read: the generic words, the same score, no error', async () => {
    const transport = failingReadOf('magrsH', createDefaultRpcTransport({ url: server.url }));
    const mint = subject(manifest, 'token', 'token:governed:coral').address;
    const { result } = await scanToken(mint, { rpc: createSolanaRpcFromTransport(transport), now: Date.now });
    const twin = get('single-key').result;
    assert.equal(result.recommendation, twin.recommendation);
    assert.equal(result.risk_score, twin.risk_score);
    assert.equal((result.evidence as any).authority_control, undefined);
  });

  it("the realm cannot be read: the DAO is still named, by its realm's address", async () => {
    const transport = failingReadOf('4ct8XU', createDefaultRpcTransport({ url: server.url }));
    const mint = subject(manifest, 'token', 'token:governed:realms').address;
    const { result } = await scanToken(mint, { rpc: createSolanaRpcFromTransport(transport), now: Date.now });
    assert.ok(
      result.recommendation.startsWith(
        'A Realms DAO (realm 4ct8…aug4) (67% yes votes, 7-day voting) holds its',
      ),
      result.recommendation,
    );
  });
});
