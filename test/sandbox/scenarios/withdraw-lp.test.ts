/**
 * The withdraw-lp action on the seeded sandbox, through its RPC: the LP holder's real SPL burn
 * (signed with its manifest key) and the stand-in's payout of the pool's reserves, then the real
 * token scan before and after. A burn without the withdrawal memo (burn-lp) pays nothing out.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { address, type Rpc, type SolanaRpcApi } from '@solana/kit';
import { getAddMemoInstruction } from '@solana-program/memo';
import { getBurnInstruction, getCreateAssociatedTokenIdempotentInstruction } from '@solana-program/token';
import bs58 from 'bs58';
import { actorSigner } from '../../../src/sandbox/actors/keypair-files.js';
import { performAction } from '../../../src/sandbox/actors/transactions.js';
import { associatedTokenAccount } from '../../../src/sandbox/scenarios/builders/token.js';
import { action, subject } from '../../../src/sandbox/scenarios/index.js';
import { WITHDRAW_MEMO } from '../../../src/sandbox/stand-ins/cpmm-withdraw.js';
import { submit } from '../../../src/sandbox/wallets.js';
import { scanToken } from '../../../src/scans/token/index.js';
import { decodeRaydiumCpmmPool } from '../../../src/solana/decoders/raydium-cpmm.js';
import { MEMO_PROGRAM, TOKEN_PROGRAM } from '../../../src/solana/programs.js';
import { type SeededSandbox, startSeededSandbox } from './seeded-sandbox.js';

const SUBJECT = 'token:pool-lp-creator';

let sandbox: SeededSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function act(name: string) {
  sandbox = await startSeededSandbox();
  const s = subject(sandbox.manifest, 'token', SUBJECT);
  const planned = action(sandbox.manifest, SUBJECT, name);
  const actor = await actorSigner(planned.actor);
  const scan = async () => (await scanToken(s.address, { rpc: sandbox!.rpc as never, now: Date.now })).result;
  const before = await scan();
  const signatures = await performAction(sandbox.rpc, s, planned, actor);
  return { s, planned, actor, before, after: await scan(), signatures };
}

async function tokenAmount(rpc: Rpc<SolanaRpcApi>, account: string): Promise<bigint> {
  const { value } = await rpc.getTokenAccountBalance(address(account)).send();
  return BigInt(value.amount);
}

describe('sandbox action withdraw-lp (token:pool-lp-creator)', { timeout: 120_000 }, () => {
  it("burns the holder's LP for real, pays the reserves out to it, and the scan sees the rug", async () => {
    const { s, planned, actor, before, after, signatures } = await act('withdraw-lp');
    const market = s.expect.market!;
    const rpc = sandbox!.rpc;

    // The transaction: the holder's own SPL Burn of every LP token, signed by it, marked as a withdrawal.
    assert.equal(signatures.length, 1);
    const tx = await rpc
      .getTransaction(signatures[0] as never, { maxSupportedTransactionVersion: 0, encoding: 'json' })
      .send();
    assert.equal(tx?.meta?.err, null);
    const keys: readonly string[] = tx!.transaction.message.accountKeys;
    const instructions = tx!.transaction.message.instructions.map((ix) => ({
      program: keys[ix.programIdIndex],
      accounts: ix.accounts.map((i) => keys[i]),
      data: bs58.decode(ix.data),
    }));
    const burn = instructions.find((ix) => ix.program === TOKEN_PROGRAM && ix.data[0] === 8);
    assert.deepEqual(burn?.accounts, [market.lpHolders![0]!.tokenAccount, market.lpMint, actor.address]);
    assert.equal(Buffer.from(burn!.data).readBigUInt64LE(1), BigInt(market.lpHolders![0]!.amount));
    const memo = instructions.find((ix) => ix.program === MEMO_PROGRAM);
    assert.equal(Buffer.from(memo!.data).toString(), 'raydium-cpmm:withdraw');

    // The payout: the reserves left the vaults for the holder's accounts, dust of the 100 locked LP units left behind.
    const lpMint = await rpc.getTokenSupply(address(market.lpMint!)).send();
    assert.equal(lpMint.value.amount, '0');
    const baseDust = await tokenAmount(rpc, market.baseVault);
    const quoteDust = await tokenAmount(rpc, market.quoteVault);
    const issued = BigInt(market.poolLpSupply!);
    assert.equal(
      baseDust,
      BigInt(market.baseReserve) - (BigInt(market.baseReserve) * (issued - 100n)) / issued,
    );
    assert.equal(
      quoteDust,
      BigInt(market.quoteReserve) - (BigInt(market.quoteReserve) * (issued - 100n)) / issued,
    );
    assert.ok(baseDust > 0n && quoteDust > 0n && quoteDust < 1_000n, `${baseDust} ${quoteDust}`);
    const received = async (mint: string) =>
      tokenAmount(rpc, await associatedTokenAccount(actor.address, address(mint), TOKEN_PROGRAM));
    assert.equal(await received(s.address), BigInt(market.baseReserve) - baseDust);
    assert.equal(await received(market.quoteMint), BigInt(market.quoteReserve) - quoteDust);
    const pool = await rpc.getAccountInfo(address(market.pool), { encoding: 'base64' }).send();
    const decoded = decodeRaydiumCpmmPool(new Uint8Array(Buffer.from(pool.value!.data[0], 'base64')));
    assert.equal(decoded.ok && decoded.value.lpSupply, 100n);

    // The real scan, before and after: exactly the manifest's change, and a higher risk.
    for (const flag of planned.before.flags) assert.ok(before.flags.includes(flag), flag);
    for (const flag of planned.before.notFlags) assert.ok(!before.flags.includes(flag), flag);
    const added = after.flags.filter((f) => !before.flags.includes(f)).sort();
    const removed = before.flags.filter((f) => !after.flags.includes(f)).sort();
    assert.deepEqual(
      { added, removed },
      {
        added: [...planned.change.flagsAdded].sort(),
        removed: [...planned.change.flagsRemoved].sort(),
      },
    );
    assert.ok(after.risk_score > before.risk_score, `${before.risk_score} → ${after.risk_score}`);
  });

  it("a marked burn pays its LP's share, and nothing when the holder's token accounts are not named", async () => {
    sandbox = await startSeededSandbox();
    const s = subject(sandbox.manifest, 'token', SUBJECT);
    const market = s.expect.market!;
    const planned = action(sandbox.manifest, SUBJECT, 'withdraw-lp');
    const actor = await actorSigner(planned.actor);
    const half = BigInt(market.lpHolders![0]!.amount) / 2n;
    const burn = getBurnInstruction({
      account: address(market.lpHolders![0]!.tokenAccount),
      mint: address(market.lpMint!),
      authority: actor,
      amount: half,
    });
    const memo = getAddMemoInstruction({ memo: WITHDRAW_MEMO }, { programAddress: MEMO_PROGRAM });
    const reserves = async () => [
      await tokenAmount(sandbox!.rpc, market.baseVault),
      await tokenAmount(sandbox!.rpc, market.quoteVault),
    ];
    await submit(sandbox.chain, actor, [burn, memo]);
    assert.deepEqual(await reserves(), [BigInt(market.baseReserve), BigInt(market.quoteReserve)]);

    const receivers = await Promise.all(
      [s.address, market.quoteMint].map(async (mint) =>
        getCreateAssociatedTokenIdempotentInstruction({
          payer: actor,
          ata: await associatedTokenAccount(actor.address, address(mint), TOKEN_PROGRAM),
          owner: actor.address,
          mint: address(mint),
        }),
      ),
    );
    await submit(sandbox.chain, actor, [...receivers, burn, memo]);
    // The first burn paid nothing and left the pool's count as it was: the second pays half ÷ issued of each vault.
    const issued = BigInt(market.poolLpSupply!);
    const share = (reserve: string) => BigInt(reserve) - (BigInt(reserve) * half) / issued;
    assert.deepEqual(await reserves(), [share(market.baseReserve), share(market.quoteReserve)]);
  });

  it('a burn without the withdrawal memo (burn-lp) pays nothing out: the vaults keep the reserves', async () => {
    const { s, after } = await act('burn-lp');
    const market = s.expect.market!;
    assert.equal(await tokenAmount(sandbox!.rpc, market.baseVault), BigInt(market.baseReserve));
    assert.equal(await tokenAmount(sandbox!.rpc, market.quoteVault), BigInt(market.quoteReserve));
    assert.ok(!after.flags.includes('LIQUIDITY_THIN'), String(after.flags));
  });
});
