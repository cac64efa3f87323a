/**
 * A round of pool reads spans several getMultipleAccounts calls (100 accounts each). One call that
 * fails loses only its own accounts, which stay unread (unknown, not absent); the others' answers
 * are kept, so a pool they found is still reported, and the failure is named. On the seeded sandbox.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type Address,
  address,
  createDefaultRpcTransport,
  createSolanaRpcFromTransport,
  generateKeyPairSigner,
} from '@solana/kit';
import { subject } from '../../../src/sandbox/scenarios/index.js';
import { discover } from '../../../src/scans/liquidity/discover.js';
import { gatherLiquidity } from '../../../src/scans/liquidity/facts.js';
import { gatherTokenFacts } from '../../../src/scans/token/schedule.js';
import { failingTransport } from '../../helpers/rpc-transports.js';
import { useSeededSandbox } from '../../helpers/seeded-sandbox.js';

describe('a pool round whose reads partly fail', () => {
  const sandbox = useSeededSandbox();

  it('keeps the calls that answered: the pool they found is reported, the failed call’s accounts stay unread', async () => {
    const s = subject(sandbox.manifest, 'token', 'token:pool-lp-burned');
    // 250 more candidates, all without an account: the round takes three calls, the pools in the first.
    const filler: Address[] = await Promise.all(
      Array.from({ length: 250 }, async () => (await generateKeyPairSigner()).address),
    );
    const marker = filler.at(-1)!;
    const transport = failingTransport(
      createDefaultRpcTransport({ url: sandbox.server.url }),
      (method, params) =>
        method === 'getMultipleAccounts' && Array.isArray(params[0]) && params[0].includes(marker),
    );
    const rpc = createSolanaRpcFromTransport(transport);
    const { facts } = await gatherTokenFacts(rpc, address(s.address), Date.now);
    const found = await discover(facts);
    const discovery = { ...found, candidates: [...found.candidates, ...filler] };
    const pool = s.expect.market!.pool as Address;
    assert.ok(discovery.candidates.indexOf(pool) < 100, 'the pool is read by the first call');
    const liquidity = await gatherLiquidity(facts, rpc, undefined, discovery);

    assert.ok(liquidity.reads.accounts.get(pool), 'the pool, read by a call that answered');
    assert.equal(liquidity.reads.accounts.get(filler[0]!), null, 'no account: read, absent');
    assert.equal(liquidity.reads.accounts.has(marker), false, 'unread: unknown');
    assert.ok(
      liquidity.errors.some((e) => e.startsWith('getMultipleAccounts: injected failure')),
      String(liquidity.errors),
    );
  });
});
