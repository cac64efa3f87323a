/**
 * gatherPositions against the sandbox RPC, for the DEX the seeded scenario does not cover: a real
 * Meteora DLMM pair (fixture bytes) with PositionV2 accounts in the real layout. The filtered
 * getProgramAccounts (discriminator + pair memcmp, a dataSlice of the head) lists exactly the
 * pair's positions, each with the owner it stores, in one round with no NFT lookup; a token with
 * no concentrated pool makes no call at all.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Address,
  createDefaultRpcTransport,
  createSolanaRpcFromTransport,
  generateKeyPairSigner,
} from '@solana/kit';
import { pubkey } from '../../../src/sandbox/scenarios/builders/bytes.js';
import {
  encodeMintAccount,
  encodeTokenAccount,
  encodeWhirlpool,
} from '../../../src/sandbox/scenarios/builders/pool-layouts.js';
import { encodeWhirlpoolPosition } from '../../../src/sandbox/scenarios/builders/whirlpool-positions.js';
import { gatherPositions } from '../../../src/scans/liquidity/positions.js';
import { ORCA_WHIRLPOOLS_CONFIG, whirlpoolAddresses } from '../../../src/scans/liquidity/positions-locate.js';
import { decodeLbPair } from '../../../src/solana/decoders/meteora-dlmm.js';
import {
  METEORA_DLMM_PROGRAM,
  ORCA_WHIRLPOOL_PROGRAM,
  TOKEN_PROGRAM,
  WSOL_MINT,
} from '../../../src/solana/programs.js';
import { countingTransport } from '../../helpers/rpc-transports.js';
import { factsHeldBy } from '../../helpers/token-accounts.js';
import { type Sandbox, startSandbox } from '../../sandbox/harness.js';
import { expectDecoded, loadAccount } from '../../solana/fixtures.js';

const pairDump = loadAccount('meteora-dlmm-lbpair-7ubS3Gcc.json');
const pair = expectDecoded(decodeLbPair(pairDump.data));
const positionBytes = loadAccount('meteora-dlmm-position-v2-B9ouHFKE.json').data;

/** The real position's bytes, moved to `lbPair`, owned by `owner`, with `shares` in its first bins. */
function positionV2(lbPair: Address, owner: Address, shares: bigint[]): Uint8Array {
  const data = new Uint8Array(positionBytes);
  data.set(pubkey(lbPair), 8);
  data.set(pubkey(owner), 40);
  const view = new DataView(data.buffer);
  shares.forEach((s, i) => {
    view.setBigUint64(72 + 16 * i, s & (2n ** 64n - 1n), true);
    view.setBigUint64(80 + 16 * i, s >> 64n, true);
  });
  return data;
}

describe('gatherPositions on the sandbox RPC (Meteora DLMM)', () => {
  let sandbox: Sandbox;
  let owners: Address[];
  before(async () => {
    sandbox = await startSandbox();
    owners = await Promise.all([1, 2].map(async () => (await generateKeyPairSigner()).address));
    const other = (await generateKeyPairSigner()).address; // a position in another pair
    const put = async (data: Uint8Array, address?: Address) =>
      sandbox.chain.setAccount({
        address: address ?? (await generateKeyPairSigner()).address,
        lamports: 60_000_000n,
        data,
        owner: METEORA_DLMM_PROGRAM,
      });
    await put(pairDump.data, pairDump.address);
    await put(positionV2(pairDump.address, owners[0] as Address, [70n, 10n]));
    await put(positionV2(pairDump.address, owners[0] as Address, [0n, 0n, 5n]));
    await put(positionV2(pairDump.address, owners[1] as Address, [15n]));
    await put(positionV2(pairDump.address, owners[1] as Address, [])); // withdrawn: not counted
    await put(positionV2(other, owners[1] as Address, [1_000n]));
  });
  after(() => sandbox.close());

  const rpcOf = () => {
    const counter = countingTransport(createDefaultRpcTransport({ url: sandbox.server.url }));
    return { counter, rpc: createSolanaRpcFromTransport(counter.transport) };
  };

  it("lists the pair's positions with their stored owners, in one round and two calls", async () => {
    const { counter, rpc } = rpcOf();
    const facts = await gatherPositions(factsHeldBy(pair.mintA, pair.vaultA, pairDump.address), rpc);
    assert.equal(facts.pools.length, 1);
    const pool = facts.pools[0];
    assert.equal(pool?.dex, 'meteora-dlmm');
    assert.equal(pool?.current, pair.activeId);
    assert.deepEqual(
      pool?.positions?.map((p) => [p.owner, p.liquidity]).sort((a, b) => Number(b[1]) - Number(a[1])),
      [
        [owners[0], 80n],
        [owners[1], 15n],
        [owners[0], 5n],
      ],
    );
    assert.deepEqual([counter.roundTrips(), facts.rounds, facts.calls], [1, 1, 2]);
    assert.deepEqual([...counter.calls].sort(), ['getMultipleAccounts', 'getProgramAccounts']);
  });

  it('a token whose holders are no concentrated pool makes no call', async () => {
    const { counter, rpc } = rpcOf();
    const wallet = (await generateKeyPairSigner()).address;
    const facts = await gatherPositions(factsHeldBy(pair.mintA, pair.vaultA, wallet), rpc);
    assert.deepEqual(facts, { pools: [], rounds: 0, calls: 0 });
    assert.equal(counter.calls.length, 0);
  });

  it('two positions of one bundle share its mint: the mint is looked up once, and both are its holder’s', async () => {
    const key = async () => (await generateKeyPairSigner()).address;
    const [mint, vault, bundleMint, bundleAccount, holder] = await Promise.all([
      key(),
      key(),
      key(),
      key(),
      key(),
    ]);
    const pool = (await whirlpoolAddresses(mint))[0] as Address;
    const [mintA, mintB] = [mint, WSOL_MINT];
    const put = (address: Address, data: Uint8Array, owner: Address) =>
      sandbox.chain.setAccount({ address, lamports: 60_000_000n, data, owner });
    put(
      pool,
      encodeWhirlpool({
        config: ORCA_WHIRLPOOLS_CONFIG,
        bump: 255,
        tickSpacing: 64,
        liquidity: 30n,
        sqrtPriceX64: 2n ** 64n, // tick 0
        mintA,
        vaultA: vault,
        mintB,
        vaultB: await key(),
      }),
      ORCA_WHIRLPOOL_PROGRAM,
    );
    put(bundleMint, encodeMintAccount(holder, 1n, 0), TOKEN_PROGRAM);
    put(bundleAccount, encodeTokenAccount(bundleMint, holder, 1n), TOKEN_PROGRAM);
    for (const liquidity of [10n, 20n]) {
      const position = encodeWhirlpoolPosition({
        whirlpool: pool,
        positionMint: bundleMint,
        liquidity,
        tickLower: -64,
        tickUpper: 64,
      });
      put(await key(), position, ORCA_WHIRLPOOL_PROGRAM);
    }
    const { counter, rpc } = rpcOf();
    const facts = await gatherPositions(factsHeldBy(mint, vault, pool), rpc);
    assert.deepEqual(
      facts.pools[0]?.positions?.map((p) => p.owner),
      [holder, holder],
    );
    assert.equal(
      counter.calls.filter((c) => c === 'getTokenLargestAccounts').length,
      1,
      String(counter.calls),
    );
  });
});
