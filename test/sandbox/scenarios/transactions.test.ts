import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import bs58 from 'bs58';
import { subject, type TxExpect } from '../../../src/sandbox/scenarios/index.js';
import { COMPUTE_BUDGET_PROGRAM, SYSTEM_PROGRAM } from '../../../src/solana/programs.js';
import { type SeededSandbox, startSeededSandbox, transactionOf } from './seeded-sandbox.js';

let sandbox: SeededSandbox;

const plain = (value: unknown) =>
  JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)));

/** Reads a recorded transaction back and checks fee, priority and balances against the manifest and against the message itself. */
async function checkTx(name: string): Promise<{
  expect: TxExpect;
  tx: Awaited<ReturnType<typeof transactionOf>>;
  instructions: { program: string; accounts: string[]; data: Uint8Array }[];
}> {
  const { signature, expect } = subject(sandbox.manifest, 'tx', name);
  const tx = await transactionOf(sandbox, signature);
  const keys = tx.transaction.message.accountKeys;
  const instructions = tx.transaction.message.instructions.map((ix) => ({
    program: keys[Number(ix.programIdIndex)] ?? '',
    accounts: ix.accounts.map((index) => keys[Number(index)] ?? ''),
    data: bs58.decode(ix.data),
  }));
  assert.equal(keys[0], expect.signer);
  assert.equal(String(tx.slot), expect.slot);
  assert.deepEqual(plain(tx.meta?.err ?? null), plain(expect.err));
  assert.deepEqual(
    instructions.map((ix) => ix.program),
    expect.programs,
  );
  // The fee from the message alone: 5000 per signature plus ceil(price × limit / 1e6).
  let price = 0n;
  let limit: bigint | null = null;
  for (const ix of instructions.filter((i) => i.program === COMPUTE_BUDGET_PROGRAM)) {
    const view = new DataView(ix.data.buffer, ix.data.byteOffset, ix.data.byteLength);
    if (ix.data[0] === 2) limit = BigInt(view.getUint32(1, true));
    if (ix.data[0] === 3) price = view.getBigUint64(1, true);
  }
  const priority = limit === null ? 0n : (price * limit + 999_999n) / 1_000_000n;
  const fee = 5_000n * BigInt(tx.transaction.signatures.length) + priority;
  assert.equal(BigInt(tx.meta?.fee ?? 0n), fee);
  assert.equal(fee.toString(), expect.fee);
  assert.equal(price.toString(), expect.computeUnitPrice);
  assert.equal(limit === null ? null : limit.toString(), expect.computeUnitLimit);
  assert.equal(priority.toString(), expect.priorityFeeLamports);
  assert.equal(String(tx.meta?.preBalances[0]), expect.signerPreLamports);
  assert.equal(String(tx.meta?.postBalances[0]), expect.signerPostLamports);
  return { expect, tx, instructions };
}

describe('seeded scenarios: transactions', () => {
  before(async () => {
    sandbox = await startSeededSandbox();
  });
  after(() => sandbox.close());

  it('tx:success is a plain transfer with the base fee only', async () => {
    const { expect, tx } = await checkTx('tx:success');
    assert.equal(tx.meta?.err, null);
    assert.equal(expect.fee, '5000');
    assert.equal(expect.programs[0], SYSTEM_PROGRAM);
  });

  it('tx:failed-custom-error landed failed with SPL Token custom error 1 and still paid its fee', async () => {
    const { expect, tx } = await checkTx('tx:failed-custom-error');
    assert.deepEqual(plain(tx.meta?.err), { InstructionError: [0, { Custom: 1 }] });
    assert.equal(expect.customErrorCode, 1);
    assert.equal(
      BigInt(tx.meta?.preBalances[0] ?? 0n) - BigInt(tx.meta?.postBalances[0] ?? 0n),
      BigInt(tx.meta?.fee ?? 0n),
    );
    const status = await sandbox.rpc
      .getSignatureStatuses([tx.transaction.signatures[0] as never], { searchTransactionHistory: true })
      .send();
    assert.ok(status.value[0]?.err);
  });

  it('tx:high-priority-fee pays a priority fee far above the base fee', async () => {
    const { expect } = await checkTx('tx:high-priority-fee');
    assert.ok(BigInt(expect.priorityFeeLamports) >= 1_000_000n);
    assert.ok(BigInt(expect.computeUnitPrice) >= 1_000_000n);
  });

  it('tx:large-outflow sends most of the signer’s SOL away', async () => {
    const { tx } = await checkTx('tx:large-outflow');
    const pre = BigInt(tx.meta?.preBalances[0] ?? 0n);
    const post = BigInt(tx.meta?.postBalances[0] ?? 0n);
    assert.ok((pre - post) * 100n >= pre * 95n, 'at least 95 % left the signer');
  });

  it('tx:drainer approves a third party for u64::MAX and hands it a token account’s ownership', async () => {
    const { expect, instructions } = await checkTx('tx:drainer');
    assert.ok(expect.approve && expect.setAuthority);
    const [approve, setAuthority] = instructions;
    assert.ok(approve && setAuthority);
    assert.equal(approve.data[0], 4, 'Approve');
    assert.equal(
      new DataView(approve.data.buffer, approve.data.byteOffset).getBigUint64(1, true).toString(),
      expect.approve.amount,
    );
    assert.deepEqual(approve.accounts.slice(0, 3), [
      expect.approve.tokenAccount,
      expect.approve.delegate,
      expect.signer,
    ]);
    assert.equal(setAuthority.data[0], 6, 'SetAuthority');
    assert.equal(setAuthority.data[1], 2, 'AccountOwner');
    assert.equal(setAuthority.data[2], 1, 'Some(new authority)');
    assert.equal(bs58.encode(setAuthority.data.subarray(3, 35)), expect.setAuthority.newAuthority);
    assert.equal(setAuthority.accounts[0], expect.setAuthority.tokenAccount);
    assert.notEqual(expect.approve.delegate, expect.signer);
  });
});
