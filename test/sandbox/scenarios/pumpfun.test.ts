import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Address } from '@solana/kit';
import { associatedTokenAccount } from '../../../src/sandbox/scenarios/builders/token.js';
import { type PumpfunExpect, subject } from '../../../src/sandbox/scenarios/index.js';
import { decodeMetadata, findMetadataAddress } from '../../../src/solana/decoders/metaplex-metadata.js';
import { decodeMint } from '../../../src/solana/decoders/mint.js';
import {
  curveProgress,
  decodeBondingCurve,
  findBondingCurveAddress,
  INITIAL_REAL_TOKEN_RESERVES,
} from '../../../src/solana/decoders/pump-bonding-curve.js';
import {
  decodePumpSwapPool,
  findCanonicalPumpPoolAddress,
  findPumpPoolAuthority,
} from '../../../src/solana/decoders/pumpswap-pool.js';
import { decodeTokenAccount } from '../../../src/solana/decoders/token-account.js';
import {
  PUMP_MINT_AUTHORITY,
  PUMP_PROGRAM,
  PUMPSWAP_PROGRAM,
  TOKEN_PROGRAM,
  WSOL_MINT,
} from '../../../src/solana/programs.js';
import { accountBytes, type SeededSandbox, startSeededSandbox } from './seeded-sandbox.js';

const SUPPLY = 1_000_000_000_000_000n;
const VIRTUAL_TOKENS = 1_073_000_000_000_000n;
const VIRTUAL_SOL = 30_000_000_000n;
let sandbox: SeededSandbox;

async function tokenBalance(address: string): Promise<bigint> {
  const { value } = await sandbox.rpc.getTokenAccountBalance(address as Address).send();
  return BigInt(value.amount);
}

async function checkCoin(
  name: string,
): Promise<{ mint: string; expect: PumpfunExpect; curveLamports: bigint }> {
  const { address: mint, expect } = subject(sandbox.manifest, 'pumpfun', name);
  const mintAccount = await accountBytes(sandbox, mint);
  const decodedMint = decodeMint(mintAccount.data, mintAccount.owner);
  assert.ok(decodedMint.ok);
  assert.equal(decodedMint.value.program, 'spl-token');
  assert.equal(decodedMint.value.supply, SUPPLY);
  assert.equal(decodedMint.value.decimals, 6);
  assert.equal(decodedMint.value.mintAuthority, null);
  assert.equal(decodedMint.value.freezeAuthority, null);

  const curveAddress = await findBondingCurveAddress(mint as Address);
  assert.equal(curveAddress, expect.bondingCurve);
  const curveAccount = await accountBytes(sandbox, curveAddress);
  assert.equal(curveAccount.owner, PUMP_PROGRAM);
  assert.equal(curveAccount.data.length, 115);
  const curve = decodeBondingCurve(curveAccount.data);
  assert.ok(curve.ok);
  const c = curve.value;
  assert.equal(c.creator, expect.creator);
  assert.equal(c.complete, expect.complete);
  assert.equal(c.virtualTokenReserves.toString(), expect.virtualTokenReserves);
  assert.equal(c.virtualQuoteReserves.toString(), expect.virtualQuoteReserves);
  assert.equal(c.realTokenReserves.toString(), expect.realTokenReserves);
  assert.equal(c.realQuoteReserves.toString(), expect.realQuoteReserves);
  assert.equal(c.tokenTotalSupply, SUPPLY);
  assert.equal(c.quoteMint, WSOL_MINT);
  // Independently: the virtual reserves sit on pump's x·y = k curve from the Global defaults.
  const k = VIRTUAL_TOKENS * VIRTUAL_SOL;
  assert.ok(c.virtualTokenReserves * c.virtualQuoteReserves >= k);
  assert.ok(c.virtualTokenReserves * (c.virtualQuoteReserves - 1n) < k);
  assert.equal(Math.round(curveProgress(c) * 10_000), expect.progressBps);

  const ata = await associatedTokenAccount(curveAddress, mint as Address, TOKEN_PROGRAM);
  assert.equal(ata, expect.associatedBondingCurve);
  assert.equal((await tokenBalance(ata)).toString(), expect.curveTokenBalance);
  if (!c.complete) {
    // Unsold tokens plus the 206.9M migration reserve stay in the curve's token account.
    assert.equal(await tokenBalance(ata), c.realTokenReserves + (SUPPLY - INITIAL_REAL_TOKEN_RESERVES));
    const rent = await sandbox.rpc.getMinimumBalanceForRentExemption(115n).send();
    assert.equal(curveAccount.lamports, rent + c.realQuoteReserves, 'the curve holds its real SOL');
  }

  const metadataAccount = await accountBytes(sandbox, await findMetadataAddress(mint as Address));
  const metadata = decodeMetadata(metadataAccount.data);
  assert.ok(metadata.ok);
  assert.equal(metadata.value.updateAuthority, PUMP_MINT_AUTHORITY);
  assert.equal(metadata.value.isMutable, false);
  return { mint, expect, curveLamports: curveAccount.lamports };
}

describe('seeded scenarios: pump.fun', () => {
  before(async () => {
    sandbox = await startSeededSandbox();
  });
  after(() => sandbox.close());

  it('pumpfun:curve-active is 40 % through its curve, creator set, authorities revoked', async () => {
    const { expect } = await checkCoin('pumpfun:curve-active');
    assert.equal(expect.complete, false);
    assert.equal(expect.progressBps, 4_000);
  });

  it('pumpfun:graduated has a complete curve and the canonical PumpSwap pool holding the liquidity', async () => {
    const { mint, expect } = await checkCoin('pumpfun:graduated');
    assert.equal(expect.complete, true);
    assert.ok(expect.pool);
    const poolAddress = await findCanonicalPumpPoolAddress(mint as Address);
    assert.equal(poolAddress, expect.pool.address);
    const poolAccount = await accountBytes(sandbox, poolAddress);
    assert.equal(poolAccount.owner, PUMPSWAP_PROGRAM);
    const pool = decodePumpSwapPool(poolAccount.data);
    assert.ok(pool.ok);
    assert.equal(pool.value.creator, await findPumpPoolAuthority(mint as Address));
    assert.equal(pool.value.baseMint, mint);
    assert.equal(pool.value.quoteMint, WSOL_MINT);
    assert.equal(pool.value.coinCreator, expect.creator);
    assert.equal(pool.value.lpMint, expect.pool.lpMint);
    assert.equal(pool.value.lpSupply.toString(), expect.pool.lpSupply);
    assert.equal(pool.value.index, 0);
    const base = await accountBytes(sandbox, pool.value.poolBaseTokenAccount);
    const decodedBase = decodeTokenAccount(base.data, base.owner);
    assert.ok(decodedBase.ok);
    assert.equal(decodedBase.value.owner, poolAddress);
    assert.equal(decodedBase.value.amount, SUPPLY - INITIAL_REAL_TOKEN_RESERVES);
    assert.equal(
      (await tokenBalance(pool.value.poolQuoteTokenAccount)).toString(),
      expect.pool.quoteReserveLamports,
    );
  });

  it('pumpfun:serial-latest is a dead launch by the serial creator', async () => {
    const { expect } = await checkCoin('pumpfun:serial-latest');
    const creator = subject(sandbox.manifest, 'wallet', 'wallet:pump-serial-creator');
    assert.equal(expect.creator, creator.address);
    assert.ok(BigInt(expect.realQuoteReserves) < 200_000_000n);
  });
});
