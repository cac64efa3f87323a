/**
 * The transfer-hook scenarios (src/sandbox/scenarios/transfer-hooks.ts): hooks that really run
 * (a patched SBF program returning at once), a validation account the interface's decoder reads,
 * and — the point of the simulation — the very transfer the scanner simulates, signed by the
 * holder and sent, does on chain what the simulation said: lands for the allowing hook, fails
 * with the hook's error for the refusing one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  address,
  type Blockhash,
  getAddressDecoder,
  getBase64Encoder,
  getTransactionDecoder,
  getTransactionEncoder,
  signTransaction,
} from '@solana/kit';
import { findExtraAccountMetaListPda, getExtraAccountMetasDecoder } from '@solana-program/token-2022';
import { type SandboxChain, TransactionRejectedError } from '../../../src/sandbox/chain/chain.js';
import { DEFAULT_SCENARIO_SEED, KeyRing } from '../../../src/sandbox/scenarios/builders/keys.js';
import { type ScenarioManifest, seededChain, subject } from '../../../src/sandbox/scenarios/index.js';
import { REFUSING_HOOK_ERROR } from '../../../src/sandbox/scenarios/transfer-hooks.js';
import { freshOwner, transferTransaction } from '../../../src/scans/token/transfer-simulation/message.js';
import type { RawAccount } from '../../../src/scans/token-facts/model.js';

describe('transfer-hook scenarios', () => {
  let chain: SandboxChain;
  let manifest: ScenarioManifest;
  before(async () => {
    ({ chain, manifest } = await seededChain({ autoAdvance: false }));
  });
  after(() => chain.stop());

  const raw = (at: string): RawAccount | null => {
    const account = chain.getAccount(at);
    if (!account) return null;
    return {
      address: address(at),
      owner: getAddressDecoder().decode(account.owner()),
      lamports: account.lamports(),
      data: new Uint8Array(account.data()),
    };
  };

  /** The scanner's transfer of one token from the largest holder, signed by that holder and sent. */
  async function sendAsTheScannerBuildsIt(name: string) {
    const token = subject(manifest, 'token', name);
    const hook = address(token.expect.transferHook!.programId);
    const holder = token.expect.holders[0]!;
    const [validation] = await findExtraAccountMetaListPda(
      { mint: address(token.address) },
      { programAddress: hook },
    );
    const { blockhash, lastValidBlockHeight } = chain.latestBlockhash();
    const { wire } = await transferTransaction({
      mint: raw(token.address)!,
      decimals: token.expect.decimals,
      source: raw(holder.tokenAccount)!,
      owner: address(holder.owner),
      amount: 1_000_000n,
      recipient: freshOwner(),
      hookProgram: hook,
      validation: raw(validation),
      blockhash: { blockhash: blockhash as Blockhash, lastValidBlockHeight },
    });
    const signer = await new KeyRing(DEFAULT_SCENARIO_SEED).signer(`${name}:holder:0`);
    const unsigned = getTransactionDecoder().decode(getBase64Encoder().encode(wire));
    const signed = await signTransaction([signer.keyPair], unsigned);
    // With preflight: the signatures are verified, and a failing transfer is refused with its simulation.
    try {
      return { landed: chain.send(new Uint8Array(getTransactionEncoder().encode(signed))).landed, err: null };
    } catch (e) {
      assert.ok(e instanceof TransactionRejectedError, String(e));
      return { landed: false, err: e.simulation?.err ?? e.message };
    }
  }

  it('each hook is an executable program; the allowing hook lists four extra accounts, the refusing one none', async () => {
    for (const [name, metas] of [
      ['token:t22-hook-allows', 4],
      ['token:t22-hook-refuses', 0],
    ] as const) {
      const token = subject(manifest, 'token', name);
      const hook = address(token.expect.transferHook!.programId);
      assert.equal(chain.getAccount(hook)?.executable(), true, name);
      const [validation] = await findExtraAccountMetaListPda(
        { mint: address(token.address) },
        { programAddress: hook },
      );
      const list = getExtraAccountMetasDecoder().decode(raw(validation)!.data);
      assert.equal(list.length, metas, name);
      assert.ok(token.expect.transferSimulation, `${name} says what the simulation raises`);
    }
  });

  it('the simulated transfer, really sent: the allowing hook lets it land, the refusing hook fails it with its error', async () => {
    const allowed = await sendAsTheScannerBuildsIt('token:t22-hook-allows');
    assert.equal(
      allowed.err,
      null,
      JSON.stringify(allowed.err, (_k, v) => (typeof v === 'bigint' ? String(v) : v)),
    );
    const refused = await sendAsTheScannerBuildsIt('token:t22-hook-refuses');
    assert.deepEqual(refused.err, { InstructionError: [1, { Custom: REFUSING_HOOK_ERROR }] });
  });
});
