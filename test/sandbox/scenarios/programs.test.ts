import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Address } from '@solana/kit';
import bs58 from 'bs58';
import { type ProgramExpect, subject } from '../../../src/sandbox/scenarios/index.js';
import { isOnCurveAddress } from '../../../src/solana/address-curve.js';
import { decodeSquadsMultisig } from '../../../src/solana/decoders/squads.js';
import {
  decodeUpgradeableLoaderState,
  findProgramDataAddress,
} from '../../../src/solana/decoders/upgradeable-loader.js';
import { BPF_UPGRADEABLE_LOADER, SQUADS_V4_PROGRAM } from '../../../src/solana/programs.js';
import { fundedSigner, send } from '../harness.js';
import {
  accountBytes,
  type SeededSandbox,
  signaturesOf,
  startSeededSandbox,
  transactionOf,
} from './seeded-sandbox.js';

let sandbox: SeededSandbox;
const DAY = 86_400;

async function checkProgram(
  name: string,
): Promise<{ address: string; expect: ProgramExpect; slot: bigint; authority: Address | null }> {
  const { address, expect } = subject(sandbox.manifest, 'program', name);
  const program = await accountBytes(sandbox, address);
  assert.equal(program.owner, BPF_UPGRADEABLE_LOADER);
  assert.equal(program.executable, true);
  const state = decodeUpgradeableLoaderState(program.data);
  assert.ok(state.ok && state.value.kind === 'program');
  assert.equal(state.value.programDataAddress, await findProgramDataAddress(address as Address));
  assert.equal(state.value.programDataAddress, expect.programData);
  const data = decodeUpgradeableLoaderState((await accountBytes(sandbox, expect.programData)).data);
  assert.ok(data.ok && data.value.kind === 'programData');
  assert.equal(data.value.upgradeAuthority, expect.upgradeAuthority);
  assert.equal(data.value.slot.toString(), expect.lastDeploySlot);
  assert.equal(data.value.executableLength, expect.executableLength);
  assert.ok(data.value.startsWithElf);
  return { address, expect, slot: data.value.slot, authority: data.value.upgradeAuthority };
}

/** Loader instructions (tag → count) in the transactions touching the ProgramData, read back over RPC. */
async function loaderHistory(programData: string) {
  const signatures = await signaturesOf(sandbox, programData);
  const entries = [];
  for (const entry of [...signatures].reverse()) {
    const tx = await transactionOf(sandbox, entry.signature);
    const keys = tx.transaction.message.accountKeys;
    for (const ix of tx.transaction.message.instructions) {
      if (keys[Number(ix.programIdIndex)] !== BPF_UPGRADEABLE_LOADER) continue;
      const data = bs58.decode(ix.data);
      const tag = new DataView(data.buffer, data.byteOffset).getUint32(0, true);
      const accounts = ix.accounts.map((i) => keys[Number(i)]);
      entries.push({
        signature: entry.signature,
        slot: tx.slot,
        blockTime: Number(tx.blockTime),
        tag,
        accounts,
      });
    }
  }
  return entries;
}

describe('seeded scenarios: programs', () => {
  before(async () => {
    sandbox = await startSeededSandbox();
  });
  after(() => sandbox.close());

  it('program:immutable was deployed for real and then had its authority removed', async () => {
    const { expect, authority } = await checkProgram('program:immutable');
    assert.equal(authority, null);
    const history = await loaderHistory(expect.programData);
    assert.deepEqual(
      history.map((h) => h.tag),
      [2, 4],
      'DeployWithMaxDataLen, then SetAuthority',
    );
    assert.equal(history[1]?.accounts.length, 2, 'SetAuthority without a new authority: immutable');
    assert.deepEqual(
      history.map((h) => h.signature),
      [...expect.deployments.map((d) => d.signature), ...expect.authorityChanges.map((c) => c.signature)],
    );
  });

  it('program:single-key is upgradeable by one keypair and was upgraded twice in the last week', async () => {
    const { address, expect, authority, slot } = await checkProgram('program:single-key');
    assert.ok(authority && isOnCurveAddress(authority), 'a plain keypair');
    const history = await loaderHistory(expect.programData);
    assert.deepEqual(
      history.map((h) => h.tag),
      [2, 3, 3],
    );
    assert.deepEqual(
      history.map((h) => h.signature),
      expect.deployments.map((d) => d.signature),
    );
    assert.equal(BigInt(history.at(-1)?.slot ?? 0n), slot, 'ProgramData slot is the last upgrade');
    const now = Date.now() / 1000;
    const lastWeek = history.filter((h) => h.tag === 3 && h.blockTime >= now - 7 * DAY);
    assert.equal(lastWeek.length, 2);
    for (const upgrade of lastWeek) assert.equal(upgrade.accounts[6], authority, 'signed by the authority');
    // The deployed code really runs (it is the Memo v2 body): an instruction with UTF-8 data succeeds.
    const payer = await fundedSigner(sandbox.chain);
    const signature = await send(sandbox, payer, [
      { programAddress: address as Address, accounts: [], data: new TextEncoder().encode('scan me') },
    ]);
    const tx = await transactionOf(sandbox, signature);
    assert.equal(tx.meta?.err, null);
  });

  it('program:multisig is governed by a Squads v4 multisig account (3 of 5) at an off-curve address', async () => {
    const { expect, authority } = await checkProgram('program:multisig');
    assert.ok(authority && expect.multisig);
    assert.equal(isOnCurveAddress(authority), false);
    const account = await accountBytes(sandbox, authority);
    assert.equal(account.owner, SQUADS_V4_PROGRAM);
    const multisig = decodeSquadsMultisig(account.data);
    assert.ok(multisig.ok);
    assert.equal(multisig.value.threshold, expect.multisig.threshold);
    assert.equal(multisig.value.threshold, 3);
    assert.deepEqual(
      multisig.value.members.map((m) => m.key),
      expect.multisig.members,
    );
    assert.equal(multisig.value.voterCount, expect.multisig.voters);
    assert.equal(multisig.value.configAuthority, expect.multisig.configAuthority);
    const history = await loaderHistory(expect.programData);
    assert.deepEqual(
      history.map((h) => h.tag),
      [2, 3, 4],
    );
    assert.equal(history.at(-1)?.accounts[2], authority, 'SetAuthority named the multisig');
  });

  it('stand-in programs sit at the real pump.fun, PumpSwap and Squads ids', async () => {
    for (const name of ['program:stand-in:pump', 'program:stand-in:pumpswap', 'program:stand-in:squads-v4']) {
      const { expect } = await checkProgram(name);
      assert.equal(expect.standIn, true);
    }
  });
});
