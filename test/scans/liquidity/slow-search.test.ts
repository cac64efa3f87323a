/**
 * A provider that never answers getProgramAccounts (a program-wide scan it is still grinding
 * through): the AMM v4 pool search and the positions listing are optional, each bounded on its own
 * (OPTIONAL_SEARCH_MS; a few ms here), so the liquidity reads still end and the scan answers
 * exactly as if the search had been refused: LIQUIDITY_UNAVAILABLE or LIQUIDITY_OWNERS_UNAVAILABLE,
 * every other flag intact. On the seeded sandbox; the hanging call ends only when its signal aborts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  address,
  createDefaultRpcTransport,
  createSolanaRpcFromTransport,
  type RpcTransport,
} from '@solana/kit';
import { subject } from '../../../src/sandbox/scenarios/index.js';
import { gatherLiquidity } from '../../../src/scans/liquidity/facts.js';
import { assessToken } from '../../../src/scans/token/assess.js';
import { gatherTokenFacts } from '../../../src/scans/token/schedule.js';
import { failingTransport } from '../../helpers/rpc-transports.js';
import { useSeededSandbox } from '../../helpers/seeded-sandbox.js';

/** Never answers getProgramAccounts: the call ends only when the caller's signal aborts it. */
function hangingSearches(inner: RpcTransport): RpcTransport {
  return (async (request) => {
    const { method } = request.payload as { method?: string };
    if (method !== 'getProgramAccounts') return inner(request);
    return new Promise((_, reject) => {
      const { signal } = request;
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  }) as RpcTransport;
}

describe('optional searches a provider never answers', () => {
  const sandbox = useSeededSandbox();

  /** The token's facts and pools, assessed (the scan's liquidity path), with searches bounded at 20 ms. */
  async function scan(name: string, wrap: (t: RpcTransport) => RpcTransport) {
    const s = subject(sandbox.manifest, 'token', name);
    const rpc = createSolanaRpcFromTransport(wrap(createDefaultRpcTransport({ url: sandbox.server.url })));
    const { facts } = await gatherTokenFacts(rpc, address(s.address), Date.now);
    const liquidity = await gatherLiquidity(facts, rpc, undefined, undefined, 20);
    const result = assessToken(
      { ...facts, transferSimulation: null, governors: [] } as never,
      undefined,
      liquidity,
    );
    return { s, result, evidence: result.evidence as any };
  }
  const refused = (t: RpcTransport) => failingTransport(t, (m) => m === 'getProgramAccounts');

  it('the AMM v4 pool search: the vault is unlocated, LIQUIDITY_UNAVAILABLE says no answer came, the rest as when refused', {
    timeout: 20_000,
  }, async () => {
    const slow = await scan('token:pool-amm-v4-lp-creator', hangingSearches);
    const refusal = await scan('token:pool-amm-v4-lp-creator', refused);
    assert.ok(slow.result.flags.includes('LIQUIDITY_UNAVAILABLE'), String(slow.result.flags));
    assert.deepEqual(slow.result.flags, refusal.result.flags);
    assert.match(
      slow.evidence.flags.LIQUIDITY_UNAVAILABLE.reason,
      /getProgramAccounts \(Raydium AMM v4 pool of vault \w+\): no answer within 20 ms/,
    );
    assert.equal(slow.evidence.unlocated_markets[0].vault, slow.s.expect.market!.baseVault);
  });

  it('the positions listing: the owners are unknown (LIQUIDITY_OWNERS_UNAVAILABLE), the pool and its other flags intact', {
    timeout: 20_000,
  }, async () => {
    const slow = await scan('token:pool-owned', hangingSearches);
    const refusal = await scan('token:pool-owned', refused);
    assert.ok(slow.result.flags.includes('LIQUIDITY_OWNERS_UNAVAILABLE'), String(slow.result.flags));
    assert.ok(!slow.result.flags.includes('LIQUIDITY_OWNER_CONCENTRATED'), String(slow.result.flags));
    assert.deepEqual(slow.result.flags, refusal.result.flags);
    assert.equal(slow.result.confidence, refusal.result.confidence);
    assert.match(
      slow.evidence.flags.LIQUIDITY_OWNERS_UNAVAILABLE.reason,
      /getProgramAccounts: no answer within 20 ms/,
    );
    assert.equal(slow.evidence.markets[0].pool, (slow.s.expect as any).market.pool);
  });
});
