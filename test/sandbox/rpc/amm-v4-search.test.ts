/**
 * The search /scan/token sends for a Raydium AMM v4 vault among the largest holders — one
 * getProgramAccounts on the AMM v4 program, AmmInfo's size and the vault at the coin or pc vault
 * offset — answered by the sandbox RPC as a node answers it, under every provider profile (the AMM
 * v4 program is not one of the large programs providers refuse to scan).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Address, createSolanaRpc, generateKeyPairSigner } from '@solana/kit';
import { createSandboxChain, type SandboxChain } from '../../../src/sandbox/chain/chain.js';
import { RPC_PROFILE_NAMES } from '../../../src/sandbox/rpc/profiles.js';
import { type SandboxRpc, startSandboxRpc } from '../../../src/sandbox/rpc/server.js';
import { encodeAmmV4Pool } from '../../../src/sandbox/scenarios/builders/pool-layouts.js';
import { ammV4Filters } from '../../../src/scans/liquidity/amm-v4-search.js';
import { decodeRaydiumAmmV4 } from '../../../src/solana/decoders/raydium-amm-v4.js';
import { RAYDIUM_AMM_V4_PROGRAM, WSOL_MINT } from '../../../src/solana/programs.js';

const address = async () => (await generateKeyPairSigner()).address;

describe('sandbox RPC: getProgramAccounts on Raydium AMM v4 filtered by vault', () => {
  let chain: SandboxChain;
  const servers: SandboxRpc[] = [];
  let coinVault: Address;
  let pcVault: Address;
  let pool: Address;
  let other: Address;

  before(async () => {
    chain = await createSandboxChain({ autoAdvance: false });
    [coinVault, pcVault, pool, other] = await Promise.all([address(), address(), address(), address()]);
    const fields = async (coin: Address, pc: Address) => ({
      nonce: 254,
      coinDecimals: 6,
      pcDecimals: 9,
      coinVault: coin,
      pcVault: pc,
      coinMint: await address(),
      pcMint: WSOL_MINT,
      lpMint: await address(),
      openOrders: await address(),
      market: await address(),
      marketProgram: await address(),
      targetOrders: await address(),
      ammOwner: await address(),
      lpAmount: 1_000n,
    });
    chain.setAccount({
      address: pool,
      lamports: 10_000_000n,
      data: encodeAmmV4Pool(await fields(coinVault, pcVault)),
      owner: RAYDIUM_AMM_V4_PROGRAM,
    });
    // Another pool whose pc vault is the first pool's coin vault: only the side searched matches.
    chain.setAccount({
      address: other,
      lamports: 10_000_000n,
      data: encodeAmmV4Pool(await fields(await address(), coinVault)),
      owner: RAYDIUM_AMM_V4_PROGRAM,
    });
    // The same bytes cut short: dataSize leaves it out.
    const short = encodeAmmV4Pool(await fields(coinVault, pcVault)).subarray(0, 700);
    chain.setAccount({
      address: await address(),
      lamports: 10_000_000n,
      data: short,
      owner: RAYDIUM_AMM_V4_PROGRAM,
    });
    for (const name of RPC_PROFILE_NAMES) {
      servers.push(
        await startSandboxRpc({ chain, host: '127.0.0.1', port: 0, profile: { name, rateLimit: null } }),
      );
    }
  });
  after(async () => {
    chain.stop();
    for (const s of servers) await s.close();
  });

  it('finds exactly the pool whose vault sits at the side searched, under every profile', async () => {
    for (const [i, name] of RPC_PROFILE_NAMES.entries()) {
      const rpc = createSolanaRpc(servers[i]!.url);
      const search = (vault: Address, side: 'coin' | 'pc') =>
        rpc
          .getProgramAccounts(RAYDIUM_AMM_V4_PROGRAM, {
            encoding: 'base64',
            filters: ammV4Filters({ vault, side }),
          })
          .send();
      const byCoin = await search(coinVault, 'coin');
      assert.deepEqual(
        byCoin.map((r) => r.pubkey),
        [pool],
        name,
      );
      const decoded = decodeRaydiumAmmV4(new Uint8Array(Buffer.from(byCoin[0]!.account.data[0], 'base64')));
      assert.ok(decoded.ok && decoded.value.vaultA === coinVault, name);
      assert.deepEqual(
        (await search(coinVault, 'pc')).map((r) => r.pubkey),
        [other],
        name,
      );
      assert.deepEqual(await search(pcVault, 'coin'), [], name);
    }
  });
});
