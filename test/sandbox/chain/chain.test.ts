import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import { getTransferSolInstruction } from '@solana-program/system';
import { createSandboxChain, type SandboxChain } from '../../../src/sandbox/chain/chain.js';
import { buildTransaction, fundedSigner } from '../harness.js';

const CLOCK_SYSVAR = 'SysvarC1ock11111111111111111111111111111111';

function clockSysvar(chain: SandboxChain) {
  const data = chain.getAccount(CLOCK_SYSVAR)!.data();
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return {
    slot: view.getBigUint64(0, true),
    epoch: view.getBigUint64(16, true),
    unix: view.getBigInt64(32, true),
  };
}

/** Builds wire bytes against the chain directly (no RPC), as seeding code would. */
function inProcess(chain: SandboxChain) {
  return {
    rpc: {
      getLatestBlockhash: () => ({ send: async () => ({ value: chain.latestBlockhash() }) }),
    },
  } as unknown as Parameters<typeof buildTransaction>[0];
}

describe('sandbox chain: clock, fees and history', () => {
  it('advances one slot per slotMs of wall-clock time, keeping the Clock sysvar in step', async () => {
    let now = 1_800_000_000_000;
    const chain = await createSandboxChain({ slotMs: 400, now: () => now });
    try {
      const start = chain.slot;
      assert.deepEqual(clockSysvar(chain), { slot: start, epoch: start / 432_000n, unix: 1_800_000_000n });
      now += 1_000;
      assert.equal(chain.slot, start + 2n);
      now += 400 * 100;
      chain.warp(10);
      const slot = chain.slot;
      assert.equal(slot, start + 2n + 100n + 10n);
      const clock = clockSysvar(chain);
      assert.equal(clock.slot, slot);
      assert.equal(clock.unix, BigInt(chain.unixTimestamp(slot)));
      assert.equal(clock.unix, 1_800_000_000n + (112n * 400n) / 1000n);
    } finally {
      chain.stop();
    }
  });

  it('ticks by itself with a real timer and tells slot listeners, until stopped', {
    timeout: 30_000,
  }, async () => {
    const chain = await createSandboxChain({ slotMs: 10 });
    const seen: bigint[] = [];
    // Waits for three ticks however slow the machine is (the test's timeout bounds it); the
    // chain's own timer does not keep the process alive, so this one does meanwhile.
    const keepAlive = setInterval(() => {}, 1_000);
    await new Promise<void>((resolve) =>
      chain.onSlot((event) => {
        seen.push(event.slot);
        if (seen.length === 3) resolve();
      }),
    );
    clearInterval(keepAlive);
    chain.stop();
    assert.ok(seen[0]! < seen[1]! && seen[1]! < seen[2]!, `slots in order: ${seen.join(', ')}`);
    const after = seen.length;
    // Ten slot times later: a timer still running would have ticked by now.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(seen.length, after, 'no ticks after stop()');
  });

  it('charges 5000 per signature plus the priority fee at the default compute limit', async () => {
    const chain = await createSandboxChain({ autoAdvance: false });
    const payer = await fundedSigner(chain, 1_000_000_000n);
    const { wire } = await buildTransaction(inProcess(chain), payer, [
      getSetComputeUnitPriceInstruction({ microLamports: 10_000n }),
      getTransferSolInstruction({ source: payer, destination: payer.address, amount: 1n }),
    ]);
    const { signature, landed } = chain.send(new Uint8Array(Buffer.from(wire, 'base64')));
    assert.equal(landed, true);
    // Two builtin instructions → default limit 2 × 3000 CU; 10 000 µlamports/CU → 60 lamports.
    const record = chain.transaction(signature)!;
    assert.equal(record.meta.fee, 5060n);
    assert.equal(chain.getAccount(payer.address)?.lamports(), 1_000_000_000n - 5060n);
    assert.equal(record.meta.preBalances[0]! - record.meta.postBalances[0]!, record.meta.fee);
    assert.deepEqual(chain.signaturesFor(payer.address), [signature]);
  });
});
