/**
 * assessSimulation, flag by flag, on real unsigned wire transactions built with kit and the
 * @solana-program builders, and account states before and after encoded with the programs'
 * own codecs: the condition that raises each flag and the closest one that must not.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Address, generateKeyPairSigner, getAddressEncoder, type Instruction } from '@solana/kit';
import {
  getAdvanceNonceAccountInstruction,
  getAssignInstruction,
  getTransferSolInstruction,
} from '@solana-program/system';
import {
  AuthorityType,
  getApproveInstruction,
  getMintEncoder,
  getSetAuthorityInstruction,
  getTokenEncoder,
  getTransferInstruction,
  TOKEN_PROGRAM_ADDRESS,
  AccountState as TokenState,
} from '@solana-program/token';
import { unsignedWireTransaction } from '../../../src/sandbox/unsigned.js';
import { assessSimulation } from '../../../src/scans/simulate/assess.js';
import type { AccountState, SimulateFacts } from '../../../src/scans/simulate/facts.js';
import { SIMULATE_FLAGS } from '../../../src/scans/simulate/flags.js';
import { decodeTransaction } from '../../../src/scans/tx/decode.js';
import { BPF_UPGRADEABLE_LOADER, SYSTEM_PROGRAM, USDC_MINT } from '../../../src/solana/programs.js';
import { flagCoverage } from '../../helpers/flag-coverage.js';

const SOL = 1_000_000_000n;
const FEE = 5_000n;
const RENT = 2_039_280n;
const RECENT_BLOCKHASHES = 'SysvarRecentB1ockHashes11111111111111111111' as Address;

const wallet = (lamports: bigint): AccountState => ({
  lamports,
  owner: SYSTEM_PROGRAM,
  executable: false,
  data: new Uint8Array(),
});

interface TokenFields {
  owner: Address;
  amount: bigint;
  delegate?: Address | null;
  delegatedAmount?: bigint;
}

function tokenAccount(fields: TokenFields, lamports = RENT): AccountState {
  const data = getTokenEncoder().encode({
    mint: USDC_MINT,
    owner: fields.owner,
    amount: fields.amount,
    delegate: fields.delegate ?? null,
    state: TokenState.Initialized,
    isNative: null,
    delegatedAmount: fields.delegatedAmount ?? 0n,
    closeAuthority: null,
  });
  return { lamports, owner: TOKEN_PROGRAM_ADDRESS, executable: false, data: new Uint8Array(data) };
}

interface Scene {
  pre?: Record<string, AccountState | null>;
  post?: Record<string, AccountState | null>;
  err?: unknown;
  logs?: string[];
  slots?: { pre: bigint; simulated: bigint | null };
  programData?: Record<string, Uint8Array | null>;
  missingTables?: string[];
}

/** Facts as gatherSimulateFacts returns them: every key of the message read before; `post` for the writable ones. */
function factsOf(feePayer: Address, instructions: readonly Instruction[], scene: Scene = {}): SimulateFacts {
  const wire = unsignedWireTransaction(feePayer, instructions);
  const decoded = decodeTransaction(wire, { writable: [], readonly: [] });
  const pre = new Map<string, AccountState | null>(
    decoded.accountKeys.map((k) => [k, scene.pre?.[k] ?? (k === feePayer ? wallet(SOL) : null)]),
  );
  const post = new Map<string, AccountState | null>();
  for (const [k, v] of Object.entries(scene.post ?? {})) post.set(k, v);
  if (!post.has(feePayer)) post.set(feePayer, wallet((pre.get(feePayer)?.lamports ?? 0n) - FEE));
  return {
    wire,
    loaded: scene.missingTables ? null : { writable: [], readonly: [] },
    missingTables: scene.missingTables ?? [],
    accountKeys: decoded.accountKeys,
    writable: [...post.keys()],
    pre,
    post,
    programData: new Map(Object.entries(scene.programData ?? {})),
    simulation: scene.missingTables
      ? null
      : { err: scene.err ?? null, logs: scene.logs ?? [], unitsConsumed: 1_000n, fee: FEE },
    slots: scene.slots ?? { pre: 300n, simulated: 300n },
  };
}

/** A ProgramData header: tag 3, slot, and an upgrade authority (or none). */
function programDataHeader(authority: Address | null): Uint8Array {
  const bytes = new Uint8Array(45);
  bytes[0] = 3;
  if (authority !== null) {
    bytes[12] = 1;
    bytes.set(getAddressEncoder().encode(authority), 13);
  }
  return bytes;
}

describe('assessSimulation, flag by flag', () => {
  const flags = flagCoverage(SIMULATE_FLAGS);
  let victim: Address;
  let attacker: Address;
  let source: Address;
  let destination: Address;
  let program: Address;
  before(async () => {
    const keys = await Promise.all([0, 1, 2, 3, 4].map(() => generateKeyPairSigner()));
    [victim, attacker, source, destination, program] = keys.map((s) => s.address) as [
      Address,
      Address,
      Address,
      Address,
      Address,
    ];
  });
  after(() => flags.assertEveryFlagRaised());

  const usdcTransfer = (amount: bigint) =>
    getTransferInstruction({ source, destination, authority: victim, amount });

  it('a plain USDC transfer: the exact amounts each side moves, no flag', () => {
    const result = assessSimulation(
      factsOf(victim, [usdcTransfer(2_500_000n)], {
        pre: {
          [source]: tokenAccount({ owner: victim, amount: 10_000_000n }),
          [destination]: tokenAccount({ owner: attacker, amount: 0n }),
        },
        post: {
          [source]: tokenAccount({ owner: victim, amount: 7_500_000n }),
          [destination]: tokenAccount({ owner: attacker, amount: 2_500_000n }),
        },
      }),
    );
    assert.deepEqual(result.flags, []);
    const e = result.evidence as any;
    assert.deepEqual(
      e.token_changes.map((t: any) => [t.owner, t.change]),
      [
        [victim, '-2500000'],
        [attacker, '2500000'],
      ],
    );
    assert.equal(e.signers[0].change, String(-FEE));
    assert.equal(e.signers[0].change_excluding_fee, '0');
  });

  it('SIM_SIGNER_TOKEN_OUTFLOW: over 90 % of a token balance leaves a signer; not exactly 90 %', () => {
    const scene = (left: bigint) => ({
      pre: { [source]: tokenAccount({ owner: victim, amount: 10_000_000n }) },
      post: { [source]: tokenAccount({ owner: victim, amount: left }) },
    });
    const moved = (left: bigint) =>
      assessSimulation(factsOf(victim, [usdcTransfer(10_000_000n - left)], scene(left)));
    flags.raised(moved(999_999n), 'SIM_SIGNER_TOKEN_OUTFLOW', {
      owner: victim,
      token_account: source,
      pre_amount: '10000000',
      post_amount: '999999',
    });
    flags.notRaised(moved(1_000_000n), 'SIM_SIGNER_TOKEN_OUTFLOW');
  });

  it('TX_SIGNER_LARGE_SOL_OUTFLOW: over 90 % (fee aside) or over 10 SOL; not exactly 90 % nor 10 SOL', () => {
    const send = (pre: bigint, amount: bigint) =>
      assessSimulation(
        factsOf(
          victim,
          [getTransferSolInstruction({ source: victim as never, destination: attacker, amount })],
          {
            pre: { [victim]: wallet(pre) },
            post: { [victim]: wallet(pre - amount - FEE), [attacker]: wallet(amount) },
          },
        ),
      );
    flags.raised(send(SOL, (SOL * 9n) / 10n + 1n), 'TX_SIGNER_LARGE_SOL_OUTFLOW', { signer: victim });
    flags.notRaised(send(SOL, (SOL * 9n) / 10n), 'TX_SIGNER_LARGE_SOL_OUTFLOW');
    flags.raised(send(100n * SOL, 10n * SOL + 1n), 'TX_SIGNER_LARGE_SOL_OUTFLOW', {
      change_excluding_fee: String(-(10n * SOL + 1n)),
    });
    flags.notRaised(send(100n * SOL, 10n * SOL), 'TX_SIGNER_LARGE_SOL_OUTFLOW');
  });

  it('TX_TOKEN_APPROVE_THIRD_PARTY: a delegation to a non-signer seen in the state; not to a signer, not one already there', () => {
    const approve = (delegate: Address, preDelegate: Address | null) =>
      assessSimulation(
        factsOf(victim, [getApproveInstruction({ source, delegate, owner: victim as never, amount: 5n })], {
          pre: {
            [source]: tokenAccount({
              owner: victim,
              amount: 10n,
              delegate: preDelegate,
              delegatedAmount: preDelegate ? 5n : 0n,
            }),
          },
          post: { [source]: tokenAccount({ owner: victim, amount: 10n, delegate, delegatedAmount: 5n }) },
        }),
      );
    flags.raised(approve(attacker, null), 'TX_TOKEN_APPROVE_THIRD_PARTY', {
      token_account: source,
      delegate: attacker,
      amount: '5',
    });
    flags.notRaised(approve(victim, null), 'TX_TOKEN_APPROVE_THIRD_PARTY');
    flags.notRaised(approve(attacker, attacker), 'TX_TOKEN_APPROVE_THIRD_PARTY');
  });

  it('TX_TOKEN_ACCOUNT_OWNER_CHANGED: the token account now belongs to a non-signer; not to a signer', () => {
    const handOver = (newOwner: Address) =>
      assessSimulation(
        factsOf(victim, [usdcTransfer(0n)], {
          pre: { [source]: tokenAccount({ owner: victim, amount: 10n }) },
          post: { [source]: tokenAccount({ owner: newOwner, amount: 10n }) },
        }),
      );
    flags.raised(handOver(attacker), 'TX_TOKEN_ACCOUNT_OWNER_CHANGED', {
      token_account: source,
      new_owner: attacker,
    });
    flags.notRaised(handOver(victim), 'TX_TOKEN_ACCOUNT_OWNER_CHANGED');
  });

  it('TX_SYSTEM_ASSIGN: the signer wallet ends owned by a program; not when it stays a wallet', () => {
    const assign = (owner: Address) =>
      assessSimulation(
        factsOf(victim, [getAssignInstruction({ account: victim as never, programAddress: program })], {
          post: { [victim]: { ...wallet(SOL - FEE), owner } },
        }),
      );
    flags.raised(assign(program), 'TX_SYSTEM_ASSIGN', { account: victim, program });
    flags.notRaised(assign(SYSTEM_PROGRAM), 'TX_SYSTEM_ASSIGN');
  });

  it('TX_CLOSE_TO_THIRD_PARTY: a closed token account whose rent goes to a non-signer; not to the signer', () => {
    const close = (to: Address) => {
      const toPre = to === victim ? SOL : 0n;
      const post: Record<string, AccountState | null> = {
        [source]: null,
        [to]: wallet(toPre + RENT - (to === victim ? FEE : 0n)),
      };
      const result = assessSimulation(
        factsOf(victim, [usdcTransfer(0n)], {
          pre: {
            [source]: tokenAccount({ owner: victim, amount: 0n }),
            ...(to === victim ? {} : { [to]: null }),
          },
          post,
        }),
      );
      return result;
    };
    const toAttacker = close(attacker);
    flags.raised(toAttacker, 'TX_CLOSE_TO_THIRD_PARTY', { token_account: source, destination: attacker });
    assert.deepEqual((toAttacker.evidence as any).closed_accounts, [
      { address: source, lamports: String(RENT), token_account: true, destination: attacker },
    ]);
    flags.notRaised(close(victim), 'TX_CLOSE_TO_THIRD_PARTY');
  });

  it('SIM_MINT_AUTHORITY_HANDED_OVER: mint or freeze authority passes to a non-signer; not to the signer', () => {
    const mint = (mintAuthority: Address | null, freezeAuthority: Address | null): AccountState => ({
      lamports: 1_461_600n,
      owner: TOKEN_PROGRAM_ADDRESS,
      executable: false,
      data: new Uint8Array(
        getMintEncoder().encode({
          mintAuthority,
          supply: 1_000n,
          decimals: 6,
          isInitialized: true,
          freezeAuthority,
        }),
      ),
    });
    const handOver = (to: Address) =>
      assessSimulation(
        factsOf(
          victim,
          [
            getSetAuthorityInstruction({
              owned: program,
              owner: victim as never,
              authorityType: AuthorityType.MintTokens,
              newAuthority: to,
            }),
          ],
          {
            pre: { [program]: mint(victim, victim) },
            post: { [program]: mint(to, victim) },
          },
        ),
      );
    flags.raised(handOver(attacker), 'SIM_MINT_AUTHORITY_HANDED_OVER', {
      mint: program,
      authority_type: 'mint',
      previous_authority: victim,
      new_authority: attacker,
    });
    flags.notRaised(handOver(victim), 'SIM_MINT_AUTHORITY_HANDED_OVER');
  });

  it('TX_DURABLE_NONCE: AdvanceNonceAccount first; not a plain transfer', () => {
    const nonce = getAdvanceNonceAccountInstruction({
      nonceAccount: destination,
      recentBlockhashesSysvar: RECENT_BLOCKHASHES,
      nonceAuthority: victim as never,
    });
    flags.raised(assessSimulation(factsOf(victim, [nonce, usdcTransfer(1n)])), 'TX_DURABLE_NONCE', {
      nonce_account: destination,
    });
    flags.notRaised(assessSimulation(factsOf(victim, [usdcTransfer(1n)])), 'TX_DURABLE_NONCE');
  });

  it('SIM_WOULD_FAIL: the error decoded by name with the last logs; the instructions still show what it tries', () => {
    const facts = factsOf(
      victim,
      [
        usdcTransfer(5n),
        getApproveInstruction({ source, delegate: attacker, owner: victim as never, amount: 9n }),
      ],
      { err: { InstructionError: [0, { Custom: 1 }] }, logs: ['Program log: Error: insufficient funds'] },
    );
    const result = assessSimulation(facts);
    flags.raised(result, 'SIM_WOULD_FAIL', {
      failed_instruction: 0,
      failed_program: TOKEN_PROGRAM_ADDRESS,
      custom_code: 1,
      error_name: 'InsufficientFunds',
      last_logs: ['Program log: Error: insufficient funds'],
    });
    assert.ok(result.flags.includes('TX_TOKEN_APPROVE_THIRD_PARTY'), 'read from the instruction');
    flags.notRaised(assessSimulation(factsOf(victim, [usdcTransfer(1n)])), 'SIM_WOULD_FAIL');
  });

  it('SIM_WOULD_FAIL: a lookup table that does not exist', () => {
    const result = assessSimulation(factsOf(victim, [usdcTransfer(1n)], { missingTables: [program] }));
    flags.raised(result, 'SIM_WOULD_FAIL', { err: { AddressLookupTableNotFound: [program] } });
  });

  it('SIM_UNKNOWN_PROGRAM and SIM_UPGRADEABLE_UNKNOWN_PROGRAM: from the invoke logs; not for known or frozen programs', () => {
    const invoking = (authority: Address | null) =>
      assessSimulation(
        factsOf(
          victim,
          [usdcTransfer(1n), { programAddress: program, accounts: [], data: new Uint8Array([1]) }],
          {
            pre: {
              [program]: {
                lamports: 1n,
                owner: BPF_UPGRADEABLE_LOADER,
                executable: true,
                data: new Uint8Array(36),
              },
            },
            programData: { [program]: programDataHeader(authority) },
            logs: [`Program ${program} invoke [1]`, `Program ${TOKEN_PROGRAM_ADDRESS} invoke [2]`],
          },
        ),
      );
    const upgradeable = invoking(attacker);
    flags.raised(upgradeable, 'SIM_UNKNOWN_PROGRAM', {
      programs: [{ program, upgrade_authority: attacker }],
    });
    flags.raised(upgradeable, 'SIM_UPGRADEABLE_UNKNOWN_PROGRAM', { program, upgrade_authority: attacker });
    const frozen = invoking(null);
    flags.raised(frozen, 'SIM_UNKNOWN_PROGRAM');
    flags.notRaised(frozen, 'SIM_UPGRADEABLE_UNKNOWN_PROGRAM');
    flags.notRaised(assessSimulation(factsOf(victim, [usdcTransfer(1n)])), 'SIM_UNKNOWN_PROGRAM');
  });

  it('SIM_STATE_SLOTS_DIFFER: read and simulation at different slots lowers confidence only; not at the same slot', () => {
    const apart = assessSimulation(
      factsOf(victim, [usdcTransfer(1n)], { slots: { pre: 300n, simulated: 301n } }),
    );
    flags.raised(apart, 'SIM_STATE_SLOTS_DIFFER', { pre_slot: '300', simulated_slot: '301' });
    const same = assessSimulation(factsOf(victim, [usdcTransfer(1n)]));
    flags.notRaised(same, 'SIM_STATE_SLOTS_DIFFER');
    assert.ok(apart.confidence < same.confidence);
    assert.equal(apart.risk_score, same.risk_score);
  });

  it('TX_HIGH_FEE: a fee over 0.01 SOL; not exactly 0.01 SOL', () => {
    const withFee = (fee: bigint) => {
      const facts = factsOf(victim, [usdcTransfer(1n)]);
      return assessSimulation({ ...facts, simulation: { ...facts.simulation!, fee } });
    };
    flags.raised(withFee(SOL / 100n + 1n), 'TX_HIGH_FEE', { fee_lamports: String(SOL / 100n + 1n) });
    flags.notRaised(withFee(SOL / 100n), 'TX_HIGH_FEE');
  });
});
