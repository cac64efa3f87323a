/**
 * The launch-forensics scenarios, read back over RPC the way a scanner (or an integrator) reads
 * them: the history's first slots hold what the manifest says — who bought when, who paid, who
 * sent them SOL — and the coins are well-formed pump.fun coins whose curve's account kept no delegate.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Address } from '@solana/kit';
import { subject } from '../../../src/sandbox/scenarios/index.js';
import { decodeLaunchTransaction } from '../../../src/scans/token/launch/decode.js';
import type { LaunchTransaction } from '../../../src/scans/token-facts/model.js';
import { decodeBondingCurve } from '../../../src/solana/decoders/pump-bonding-curve.js';
import { decodeTokenAccount } from '../../../src/solana/decoders/token-account.js';
import { PUMP_PROGRAM } from '../../../src/solana/programs.js';
import {
  accountBytes,
  type SeededSandbox,
  signaturesOf,
  startSeededSandbox,
  transactionOf,
} from './seeded-sandbox.js';

const PCT = 10_000_000_000_000n; // 1 % of pump.fun's 1e15 supply
let sandbox: SeededSandbox;

/** Every transaction naming the mint, oldest first, decoded for launch forensics. */
async function launchOf(mint: string): Promise<LaunchTransaction[]> {
  const page = await signaturesOf(sandbox, mint);
  assert.ok(page.length < 1000, 'the whole history fits in one page');
  const txs = await Promise.all([...page].reverse().map((s) => transactionOf(sandbox, s.signature)));
  return txs.map((tx) => {
    const decoded = decodeLaunchTransaction(tx, mint);
    assert.ok(decoded);
    return decoded;
  });
}

describe('seeded launches', () => {
  before(async () => {
    sandbox = await startSeededSandbox();
  });
  after(() => sandbox.close());

  it('pumpfun:launch-bundled: the creator pays for five wallets’ buys in the creation slot and sends each 1 SOL', async () => {
    const { address: mint, expect } = subject(sandbox.manifest, 'pumpfun', 'pumpfun:launch-bundled');
    const txs = await launchOf(mint);
    const creation = txs.find((t) => t.createsMint);
    assert.ok(creation);
    assert.equal(String(creation.slot), expect.launch?.creationSlot);
    assert.equal(creation.feePayer, expect.creator);
    const inCreationSlot = txs.filter((t) => t.slot === creation.slot);
    const bundle = inCreationSlot.flatMap((t) => t.buys).filter((b) => b.wallet !== expect.creator);
    assert.deepEqual(
      bundle.map((b) => b.wallet).sort(),
      [...(expect.launch?.creationSlotBuyers ?? [])].sort(),
    );
    for (const t of inCreationSlot.filter((t) => t.buys.some((b) => b.wallet !== expect.creator))) {
      const [buyer] = t.buys;
      assert.equal(t.feePayer, expect.creator, 'the creator pays the buy');
      assert.deepEqual(
        t.solTransfers.find((s) => s.to === buyer?.wallet),
        { from: expect.creator, to: buyer?.wallet, lamports: 1_000_000_000n },
        'and sends the buyer 1 SOL in it',
      );
      assert.equal(buyer?.amount, 3n * PCT);
      const account = await accountBytes(sandbox, buyer!.tokenAccount);
      const held = decodeTokenAccount(account.data, account.owner);
      assert.ok(held.ok && held.value.amount === 3n * PCT, 'still held');
    }
    const later = txs.filter((t) => t.slot > creation.slot + 3 && t.buys.length > 0);
    assert.equal(later.length, 10);
    assert.ok(
      later.every((t) => t.buys.every((b) => b.wallet === t.feePayer)),
      'strangers pay for themselves',
    );
  });

  it('pumpfun:launch-fair: only the creator buys in the creation slot; one self-paid buyer 2 slots later, forty more spread out', async () => {
    const { address: mint, expect } = subject(sandbox.manifest, 'pumpfun', 'pumpfun:launch-fair');
    const txs = await launchOf(mint);
    const creation = txs.find((t) => t.createsMint);
    assert.ok(creation);
    const buys = txs.filter((t) => t.buys.length > 0);
    const first = buys.filter((t) => t.slot === creation.slot);
    assert.deepEqual(
      first.flatMap((t) => t.buys.map((b) => b.wallet)),
      [expect.creator],
    );
    const others = buys.filter((t) => t.slot !== creation.slot);
    assert.equal(others.length, 41);
    assert.equal(others[0]?.slot, creation.slot + 2);
    assert.ok(
      others.every(
        (t) =>
          t.buys.every((b) => b.wallet === t.feePayer) && t.solTransfers.every((s) => s.from === t.feePayer),
      ),
    );
    assert.equal(new Set(others.map((t) => t.slot)).size, 41, 'each in its own slot');
  });

  it('both coins are pump.fun coins: the curve names the creator, and the curve’s token account kept no delegate', async () => {
    for (const name of ['pumpfun:launch-bundled', 'pumpfun:launch-fair']) {
      const { expect } = subject(sandbox.manifest, 'pumpfun', name);
      const curve = await accountBytes(sandbox, expect.bondingCurve);
      assert.equal(curve.owner, PUMP_PROGRAM);
      const decoded = decodeBondingCurve(curve.data);
      assert.ok(decoded.ok);
      assert.equal(decoded.value.creator, expect.creator);
      assert.equal(String(decoded.value.realTokenReserves), expect.realTokenReserves);
      const vaultAccount = await accountBytes(sandbox, expect.associatedBondingCurve as Address);
      const vault = decodeTokenAccount(vaultAccount.data, vaultAccount.owner);
      assert.ok(vault.ok);
      assert.equal(vault.value.delegate, null);
      assert.equal(String(vault.value.amount), expect.curveTokenBalance);
    }
  });
});
