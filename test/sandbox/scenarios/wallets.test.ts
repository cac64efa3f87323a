import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Address, Base58EncodedBytes } from '@solana/kit';
import { subject } from '../../../src/sandbox/scenarios/index.js';
import { decodeBondingCurve } from '../../../src/solana/decoders/pump-bonding-curve.js';
import { PUMP_PROGRAM } from '../../../src/solana/programs.js';
import { type SeededSandbox, signaturesOf, startSeededSandbox, transactionOf } from './seeded-sandbox.js';

const DAY = 86_400;
let sandbox: SeededSandbox;

async function history(address: string) {
  const signatures = await signaturesOf(sandbox, address);
  const times = signatures.map((entry) => Number(entry.blockTime));
  return {
    signatures,
    failed: signatures.filter((entry) => entry.err !== null).length,
    newest: Math.max(...times),
    oldest: Math.min(...times),
  };
}

describe('seeded scenarios: wallets', () => {
  before(async () => {
    sandbox = await startSeededSandbox();
  });
  after(() => sandbox.close());

  it('wallet:old-active has six weeks of successful transfers on many days, the last one recent', async () => {
    const { address, expect } = subject(sandbox.manifest, 'wallet', 'wallet:old-active');
    const { signatures, failed, oldest, newest } = await history(address);
    assert.equal(signatures.length, expect.signatureCount);
    assert.ok(signatures.length >= 25);
    assert.equal(failed, 0);
    assert.equal(expect.failedCount, 0);
    assert.equal(oldest, expect.firstBlockTime);
    assert.equal(newest, expect.lastBlockTime);
    assert.ok(newest - oldest >= 40 * DAY, `history spans ${(newest - oldest) / DAY} days`);
    const days = new Set(signatures.map((entry) => Math.floor(Number(entry.blockTime) / DAY)));
    assert.ok(days.size >= 20, `${days.size} active days`);
    // Seeding ends at "now": the history is in the past, the latest transfer within the last few hours.
    const now = Date.now() / 1000;
    assert.ok(newest <= now + 5 && newest >= now - 3 * 3_600, `latest ${now - newest} s ago`);
    const { value: balance } = await sandbox.rpc.getBalance(address as Address).send();
    assert.equal(balance.toString(), expect.lamports);
  });

  it('wallet:burner was funded and emptied within seconds, in its only two transactions', async () => {
    const { address, expect } = subject(sandbox.manifest, 'wallet', 'wallet:burner');
    const { signatures, oldest, newest } = await history(address);
    assert.equal(signatures.length, 2);
    assert.equal(expect.signatureCount, 2);
    assert.ok(newest - oldest <= 30);
    const [drainEntry, fundingEntry] = signatures;
    assert.ok(drainEntry && fundingEntry && expect.drain);
    const funding = await transactionOf(sandbox, fundingEntry.signature);
    assert.equal(funding.transaction.message.accountKeys[0], expect.fundedBy);
    const drain = await transactionOf(sandbox, drainEntry.signature);
    assert.equal(drainEntry.signature, expect.drain.signature);
    assert.equal(drain.transaction.message.accountKeys[0], address);
    const [pre, post] = [drain.meta?.preBalances[0] ?? 0n, drain.meta?.postBalances[0] ?? 0n];
    const sent = BigInt(pre) - BigInt(post) - BigInt(drain.meta?.fee ?? 0n);
    assert.equal(sent.toString(), expect.drain.lamports);
    assert.ok(sent * 100n >= BigInt(pre) * 99n, 'at least 99 % of the balance left');
    assert.equal(Number(drain.blockTime) - Number(funding.blockTime), expect.drain.secondsAfterFunding);
    assert.equal(String(post), expect.lamports);
  });

  it('wallet:high-failure has most of its transactions landed as failed, each SPL Token custom error 1', async () => {
    const { address, expect } = subject(sandbox.manifest, 'wallet', 'wallet:high-failure');
    const { signatures, failed } = await history(address);
    assert.equal(signatures.length, expect.signatureCount);
    assert.equal(failed, expect.failedCount);
    assert.equal(failed, 16);
    assert.ok(failed / signatures.length >= 0.7);
    for (const entry of signatures.filter((e) => e.err !== null).slice(0, 3)) {
      const tx = await transactionOf(sandbox, entry.signature);
      assert.deepEqual(
        JSON.parse(JSON.stringify(tx.meta?.err, (_k, v) => (typeof v === 'bigint' ? Number(v) : v))),
        {
          InstructionError: [0, { Custom: 1 }],
        },
      );
      assert.ok(BigInt(tx.meta?.fee ?? 0n) > 0n, 'a failed transaction still pays its fee');
    }
  });

  it('wallet:pump-serial-creator: getProgramAccounts(pump, memcmp creator) finds all nine launches', async () => {
    const { address, expect } = subject(sandbox.manifest, 'wallet', 'wallet:pump-serial-creator');
    assert.ok(expect.pumpLaunches);
    const curves = await sandbox.rpc
      .getProgramAccounts(PUMP_PROGRAM, {
        encoding: 'base64',
        filters: [
          { memcmp: { offset: 49n, bytes: address as unknown as Base58EncodedBytes, encoding: 'base58' } },
        ],
      })
      .send();
    assert.equal(curves.length, 9);
    assert.deepEqual(curves.map((c) => c.pubkey).sort(), [...expect.pumpLaunches.curves].sort());
    const decoded = curves.map((c) => {
      const curve = decodeBondingCurve(new Uint8Array(Buffer.from(c.account.data[0], 'base64')));
      assert.ok(curve.ok);
      assert.equal(curve.value.creator, address);
      return curve.value;
    });
    assert.equal(decoded.filter((c) => c.complete).length, 1);
    const dead = decoded.filter((c) => !c.complete);
    assert.equal(dead.length, 8);
    for (const curve of dead) assert.ok(curve.realQuoteReserves < 200_000_000n, 'near-zero real SOL');
    const { signatures, failed } = await history(address);
    assert.equal(signatures.length, expect.signatureCount);
    assert.equal(failed, 0);
  });
});
