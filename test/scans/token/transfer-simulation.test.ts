/**
 * The transfer simulation (src/scans/token/transfer-simulation): which mints it runs for (only
 * where the static read cannot prove the answer), how a failure is read, and, on the seeded
 * sandbox, its round trips: a third one for a hook mint and none more for any other; /scan/pumpfun
 * keeps its three. A refused simulateTransaction only lowers confidence.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDefaultRpcTransport, createSolanaRpcFromTransport, type RpcTransport } from '@solana/kit';
import { AccountState, type ExtensionArgs } from '@solana-program/token-2022';
import { subject } from '../../../src/sandbox/scenarios/index.js';
import { scanPumpfun } from '../../../src/scans/pumpfun/index.js';
import type { Scanner } from '../../../src/scans/scanner.js';
import { scanToken } from '../../../src/scans/token/index.js';
import { readFailure } from '../../../src/scans/token/transfer-simulation/errors.js';
import { planTransferSimulation } from '../../../src/scans/token/transfer-simulation/plan.js';
import { decodeMint } from '../../../src/solana/decoders/mint.js';
import { SIMULATION_FEE_PAYER } from '../../../src/solana/funded-wallet.js';
import { SYSTEM_PROGRAM, TOKEN_2022_PROGRAM } from '../../../src/solana/programs.js';
import { wallet } from '../../helpers/labelled-keys.js';
import { countingTransport, delayedTransport, failingTransport } from '../../helpers/rpc-transports.js';
import { useSeededSandbox } from '../../helpers/seeded-sandbox.js';
import { mintBytes } from '../../helpers/token-accounts.js';

const HOOK = wallet('risk-scan test hook');
const plan = (extensions?: ExtensionArgs[]) => {
  const { owner, data } = mintBytes(extensions ? { extensions } : {});
  const decoded = decodeMint(data, owner);
  assert.ok(decoded.ok);
  return planTransferSimulation(decoded.value);
};
const hook: ExtensionArgs = { __kind: 'TransferHook', authority: SYSTEM_PROGRAM, programId: HOOK };

describe('which mints are simulated', () => {
  it('a transfer hook, alone or beside a fee: simulated, with its program', () => {
    assert.deepEqual(plan([hook]), {
      simulate: true,
      why: `every transfer runs hook program ${HOOK}, whose code decides`,
      hookProgram: HOOK,
    });
    assert.equal(plan([hook, { __kind: 'PermanentDelegate', delegate: HOOK }]).simulate, true);
  });

  it('no simulation where the static read proves the answer: SPL Token, non-transferable, paused, default-frozen, known extensions', () => {
    assert.equal(plan().simulate, false);
    assert.match(plan().why, /^SPL Token/);
    for (const [extensions, why] of [
      [[{ __kind: 'NonTransferable' }, hook], /non-transferable/],
      [[{ __kind: 'PausableConfig', authority: HOOK, paused: true }, hook], /paused/],
      [[{ __kind: 'DefaultAccountState', state: AccountState.Frozen }, hook], /starts frozen/],
      [[{ __kind: 'PausableConfig', authority: HOOK, paused: false }], /every Token-2022 extension/],
      [
        [{ __kind: 'TransferHook', authority: HOOK, programId: SYSTEM_PROGRAM }],
        /every Token-2022 extension/,
      ],
    ] as const) {
      const p = plan([...extensions] as ExtensionArgs[]);
      assert.equal(p.simulate, false, String(why));
      assert.match(p.why, why);
    }
  });
});

describe('reading a failed simulation', () => {
  it('names the innermost failing program, and Token-2022 errors by name', () => {
    const logs = [
      `Program ${TOKEN_2022_PROGRAM} invoke [1]`,
      `Program ${HOOK} invoke [2]`,
      `Program ${HOOK} failed: custom program error: 0x1770`,
      `Program ${TOKEN_2022_PROGRAM} failed: custom program error: 0x1770`,
    ];
    assert.deepEqual(readFailure({ InstructionError: [1, { Custom: 6000 }] }, logs), {
      program: HOOK,
      error: 'custom program error 0x1770',
      instruction: 1,
    });
    const paused = readFailure({ InstructionError: [1, { Custom: 67 }] }, [
      `Program ${TOKEN_2022_PROGRAM} failed: custom program error: 0x43`,
    ]);
    assert.equal(paused.error, 'MintPaused: the mint is paused (custom program error 0x43)');
    const invalid = readFailure({ InstructionError: [1, 'InvalidAccountData'] }, [
      `Program ${TOKEN_2022_PROGRAM} failed: invalid account data for instruction`,
    ]);
    assert.equal(invalid.error, 'invalid account data for instruction');
    assert.deepEqual(readFailure('AccountNotFound', []), {
      program: null,
      error: 'AccountNotFound',
      instruction: null,
    });
    // kit reads a simulation error's numbers as bigints: still read, never a thrown TypeError.
    assert.deepEqual(readFailure({ InsufficientFundsForRent: { account_index: 0n } }, []), {
      program: null,
      error: '{"InsufficientFundsForRent":{"account_index":0}}',
      instruction: null,
    });
  });
});

describe('the simulation on the seeded sandbox: round trips', { timeout: 120_000 }, () => {
  const sandbox = useSeededSandbox();
  const scan = async (
    scanner: Scanner,
    address: string,
    // Every call takes 100 ms, so reads sent side by side overlap as they do over a network. The
    // hook's transfer is built between the holders' answer and its simulation (@solana-program/
    // token-2022 resolves the extra accounts, hashing through WebCrypto): on a loaded machine that
    // must not outlast a round-3 read, or the counter would place the simulation a round late.
    wrap = (t: ReturnType<typeof createDefaultRpcTransport>): RpcTransport => delayedTransport(t, 100),
  ) => {
    const counter = countingTransport(wrap(createDefaultRpcTransport({ url: sandbox.server.url })));
    const { result } = await scanner(address, {
      rpc: createSolanaRpcFromTransport(counter.transport),
      now: Date.now,
    });
    return { result, roundTrips: counter.roundTrips(), calls: counter.calls };
  };
  const token = (name: string) => subject(sandbox.manifest, 'token', name).address;

  it('/scan/token: three round trips for a hook mint (the validation account read with the holders, the simulation beside the pools), as for the rest', async () => {
    for (const name of ['token:t22-hook-refuses', 'token:t22-hook-allows']) {
      const { roundTrips, calls } = await scan(scanToken, token(name));
      // No extra round: the simulation leaves once the holders are read, beside the pools.
      assert.equal(roundTrips, 3, name);
      assert.equal(calls.filter((c) => c === 'getMultipleAccounts').length, 3, `${name}: ${calls}`);
      assert.equal(
        calls.filter((c) => c === 'simulateTransaction').length,
        2,
        `${name}: two holders at once`,
      );
    }
    for (const name of [
      'token:clean',
      'token:t22-transfer-fee',
      'token:t22-pausable',
      'token:t22-non-transferable',
    ]) {
      const { roundTrips, calls } = await scan(scanToken, token(name));
      assert.equal(roundTrips, 3, name);
      assert.ok(!calls.includes('simulateTransaction'), name);
    }
  });

  it('/scan/pumpfun: still three round trips, the simulation beside the launches', async () => {
    const coin = await scan(
      scanPumpfun,
      subject(sandbox.manifest, 'pumpfun', 'pumpfun:serial-latest').address,
    );
    assert.equal(coin.roundTrips, 3);
    const hooked = await scan(scanPumpfun, token('token:t22-hook-refuses'));
    assert.equal(hooked.roundTrips, 3);
    assert.ok(hooked.result.flags.includes('TRANSFER_BLOCKED'), `${hooked.result.flags}`);
  });

  it('holders whose wallets have no system account: the simulation pays with its own fee payer, and the refusing hook is TRANSFER_BLOCKED in the same three round trips', async () => {
    const name = 'token:t22-hook-refuses-unfunded';
    for (const holder of subject(sandbox.manifest, 'token', name).expect.holders) {
      assert.equal(sandbox.chain.getAccount(holder.owner), null, `${holder.owner} has no account`);
    }
    assert.ok((sandbox.chain.getAccount(SIMULATION_FEE_PAYER)?.lamports() ?? 0n) > 0n, 'the payer holds SOL');
    const { result, roundTrips, calls } = await scan(scanToken, token(name));
    assert.ok(result.flags.includes('TRANSFER_BLOCKED'), `${result.flags}`);
    assert.ok(!result.flags.includes('TRANSFER_SIMULATION_UNAVAILABLE'), `${result.flags}`);
    const blocked = (result.evidence as any).flags.TRANSFER_BLOCKED;
    assert.equal(
      blocked.failing_program,
      subject(sandbox.manifest, 'token', name).expect.transferHook?.programId,
    );
    assert.ok(result.risk_score >= 0.85, `floored: ${result.risk_score}`);
    assert.equal(roundTrips, 3);
    assert.equal(calls.filter((c) => c === 'simulateTransaction').length, 2);
    const pumpfun = await scan(scanPumpfun, token(name));
    assert.ok(pumpfun.result.flags.includes('TRANSFER_BLOCKED'), `${pumpfun.result.flags}`);
    assert.equal(pumpfun.roundTrips, 3);
  });

  it('simulateTransaction refused: TRANSFER_SIMULATION_UNAVAILABLE, less confidence, the same risk', async () => {
    const address = token('token:t22-hook-allows');
    const known = await scan(scanToken, address);
    const refused = await scan(scanToken, address, (t) =>
      failingTransport(t, (m) => m === 'simulateTransaction'),
    );
    assert.ok(refused.result.flags.includes('TRANSFER_SIMULATION_UNAVAILABLE'), `${refused.result.flags}`);
    assert.match(
      (refused.result.evidence as any).flags.TRANSFER_SIMULATION_UNAVAILABLE.reason,
      /could not run: injected failure: simulateTransaction/,
    );
    assert.equal(refused.result.risk_score, known.result.risk_score);
    assert.ok(refused.result.confidence < known.result.confidence);
  });
});
