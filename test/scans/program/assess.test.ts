/**
 * assessProgram (pure) on ProgramFacts built here from a clean baseline plus overrides: for every
 * flag in PROGRAM_FLAGS, the smallest facts that raise it (every catalog evidence key, value by
 * value) and the closest facts that must not, at the exact boundaries of docs/risk-model.md (an
 * upgrade under 24 hours is medium and under 7 days low, three upgrades in 30 days, an authority
 * change within 30 days, a first deploy under 7 days, a Squads threshold of 2 or more, a full
 * page of HISTORY_LIMIT signatures). Accounts are in the loaders' and Squads v4's layouts; the
 * management history is wire transactions carrying real loader instructions (top level, or inner
 * under a multisig), as getTransaction returns them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type AccountMeta,
  AccountRole,
  type Address,
  appendTransactionMessageInstructions,
  type Blockhash,
  compileTransaction,
  compileTransactionMessage,
  createTransactionMessage,
  getAddressEncoder,
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  getProgramDerivedAddress,
  type Instruction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit';
import { encodeSquadsMultisig } from '../../../src/sandbox/scenarios/builders/layouts.js';
import { assessProgram } from '../../../src/scans/program/assess.js';
import { HISTORY_LIMIT, type ProgramFacts, type RawAccount } from '../../../src/scans/program/facts.js';
import { PROGRAM_FLAGS } from '../../../src/scans/program/flags.js';
import type { RecordedTransaction } from '../../../src/scans/program/history.js';
import { findSquadsVaultAddress } from '../../../src/solana/decoders/squads.js';
import { findProgramDataAddress } from '../../../src/solana/decoders/upgradeable-loader.js';
import {
  BPF_LOADER_1,
  BPF_LOADER_2,
  BPF_UPGRADEABLE_LOADER,
  CORAL_MULTISIG_PROGRAM,
  LOADER_V4,
  PYTH_GOVERNANCE_PROGRAM,
  SQUADS_V3_PROGRAM,
  SQUADS_V4_PROGRAM,
  SYSTEM_PROGRAM,
} from '../../../src/solana/programs.js';
import { assertBlindedIsNoSafer, assessCoverage } from '../../helpers/flag-coverage.js';
import { signature, wallet } from '../../helpers/labelled-keys.js';
import { loadAccount } from '../../solana/fixtures.js';

// ---------------------------------------------------------------------------------------------
// Addresses, signatures, the clock
// ---------------------------------------------------------------------------------------------

const address32 = (a: Address) => getAddressEncoder().encode(a) as Uint8Array;

const PROGRAM_ID = wallet('program assess test program id');
const PROGRAM_DATA = await findProgramDataAddress(PROGRAM_ID);
const AUTHORITY = wallet('program assess test upgrade authority');
const NEW_AUTHORITY = wallet('program assess test new authority');
const CONFIG_AUTHORITY = wallet('program assess test config authority');
const BUFFER = wallet('program assess test buffer');
/** A program nobody recognises, and an upgrade authority derived under it. */
const CUSTOM_PROGRAM = wallet('program assess test custom governance program');
const [CUSTOM_PDA] = await getProgramDerivedAddress({
  programAddress: CUSTOM_PROGRAM,
  seeds: ['upgrade-authority'],
});
const CREATE_KEY = wallet('program assess test squads create key');
const [MULTISIG] = await getProgramDerivedAddress({
  programAddress: SQUADS_V4_PROGRAM,
  seeds: ['multisig', 'multisig', address32(CREATE_KEY)],
});
const VAULT = await findSquadsVaultAddress(MULTISIG, 0);
const MEMBERS = [0, 1, 2, 3].map((i) => wallet(`program assess test member ${i}`));
const SYSVAR_RENT = 'SysvarRent111111111111111111111111111111111' as Address;
const SYSVAR_CLOCK = 'SysvarC1ock11111111111111111111111111111111' as Address;

const NOW = 1_800_000_000;
const HOUR = 3600;
const DAY = 24 * HOUR;
const NOW_SLOT = 400_000_000n;
/** The slot of a transaction `ageSeconds` old, at 2.5 slots a second. */
const slotAt = (ageSeconds: number) => NOW_SLOT - BigInt(Math.round(ageSeconds * 2.5));
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

// ---------------------------------------------------------------------------------------------
// Account bytes
// ---------------------------------------------------------------------------------------------

const u32 = (n: number) => {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n, true);
  return out;
};
const u64 = (n: bigint) => {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, n, true);
  return out;
};

const account = (owner: Address, data: Uint8Array, executable = false): RawAccount => ({
  owner,
  executable,
  lamports: 1_141_440n,
  data,
});

/** The upgradeable loader's Program account: tag 2, then its ProgramData address. */
const PROGRAM_ACCOUNT = account(
  BPF_UPGRADEABLE_LOADER,
  new Uint8Array([...u32(2), ...address32(PROGRAM_DATA)]),
  true,
);

/**
 * ProgramData: tag 3, last deploy slot, Option<authority> (a u8 tag and 32 bytes the loader keeps
 * whatever the tag), then the ELF. `stale` leaves a key's bytes behind a None tag.
 */
function programDataBytes(slot: bigint, authority: Address | null, stale?: Address): Uint8Array {
  const out = new Uint8Array(45 + 64);
  out.set(u32(3), 0);
  out.set(u64(slot), 4);
  out[12] = authority === null ? 0 : 1;
  const key = authority ?? stale;
  if (key) out.set(address32(key), 13);
  out.set([0x7f, 0x45, 0x4c, 0x46], 45);
  return out;
}

/** A loader-v4 program account: slot, authority (or next version), status (0 retracted, 1 deployed, 2 finalized). */
const loaderV4Program = (authority: Address, status: bigint) =>
  account(
    LOADER_V4,
    new Uint8Array([...u64(slotAt(100 * DAY)), ...address32(authority), ...u64(status), 0x7f]),
    true,
  );

/** A Squads v4 multisig: three voting members and one that may only propose. */
const squads = (
  threshold: number,
  configAuthority: Address | null = null,
  owner: Address = SQUADS_V4_PROGRAM,
) =>
  account(
    owner,
    encodeSquadsMultisig({
      createKey: CREATE_KEY,
      configAuthority,
      threshold,
      timeLockSeconds: 3600,
      transactionIndex: 12n,
      staleTransactionIndex: 0n,
      rentCollector: null,
      bump: 254,
      members: MEMBERS.map((key, i) => ({ key, permissions: i < 3 ? 7 : 1 })),
    }),
  );

// ---------------------------------------------------------------------------------------------
// Management transactions
// ---------------------------------------------------------------------------------------------

interface Management {
  readonly kind: 'deploy' | 'upgrade' | 'set_authority' | 'set_authority_checked' | 'transfer';
  readonly age: number;
  /** set_authority: the new authority; null gives the authority up. */
  readonly to?: Address | null;
  readonly failed?: boolean;
  /** Executed by the Squads vault: the loader instruction is an inner one. */
  readonly viaMultisig?: boolean;
}

const w = (address: Address): AccountMeta => ({ address, role: AccountRole.WRITABLE });
const r = (address: Address): AccountMeta => ({ address, role: AccountRole.READONLY });
const signer = (address: Address): AccountMeta => ({ address, role: AccountRole.READONLY_SIGNER });

function loaderInstruction(m: Management, authority: Address): Instruction {
  const ix = (accounts: AccountMeta[], data: Uint8Array): Instruction => ({
    programAddress: BPF_UPGRADEABLE_LOADER,
    accounts,
    data,
  });
  switch (m.kind) {
    case 'deploy':
      return ix(
        [
          w(AUTHORITY),
          w(PROGRAM_DATA),
          w(PROGRAM_ID),
          w(BUFFER),
          r(SYSVAR_RENT),
          r(SYSVAR_CLOCK),
          r(SYSTEM_PROGRAM),
          signer(authority),
        ],
        new Uint8Array([...u32(2), ...u64(200_000n)]),
      );
    case 'upgrade':
      return ix(
        [
          w(PROGRAM_DATA),
          w(PROGRAM_ID),
          w(BUFFER),
          w(AUTHORITY),
          r(SYSVAR_RENT),
          r(SYSVAR_CLOCK),
          signer(authority),
        ],
        u32(3),
      );
    case 'set_authority':
      return ix([w(PROGRAM_DATA), signer(authority), ...(m.to ? [r(m.to)] : [])], u32(4));
    case 'set_authority_checked':
      return ix([w(PROGRAM_DATA), signer(authority), signer(m.to!)], u32(7));
    case 'transfer':
      return {
        programAddress: SYSTEM_PROGRAM,
        accounts: [w(AUTHORITY), w(PROGRAM_DATA)],
        data: new Uint8Array([...u32(2), ...u64(1_000n)]),
      };
  }
}

/** The transaction as getTransaction returns it (wire bytes, meta), unsigned: history never checks signatures. */
function recorded(m: Management): RecordedTransaction {
  const loader = loaderInstruction(m, m.viaMultisig ? VAULT : AUTHORITY);
  const top: Instruction = m.viaMultisig
    ? {
        programAddress: SQUADS_V4_PROGRAM,
        accounts: [
          r(MULTISIG),
          w(MEMBERS[0]!),
          ...(loader.accounts ?? []).map((a) => ({ ...a, role: AccountRole.WRITABLE })),
          r(BPF_UPGRADEABLE_LOADER),
        ],
        data: new Uint8Array([194, 8, 161, 87, 153, 164, 25, 171]),
      }
    : loader;
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (tx) => setTransactionMessageFeePayer(AUTHORITY, tx),
    (tx) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: '11111111111111111111111111111111' as Blockhash, lastValidBlockHeight: 1n },
        tx,
      ),
    (tx) => appendTransactionMessageInstructions([top], tx),
  );
  const keys = compileTransactionMessage(message).staticAccounts;
  const index = (a: Address) => keys.indexOf(a);
  return {
    signature: signature(`${m.kind} ${m.age} ${m.to} ${m.failed} ${m.viaMultisig}`),
    slot: slotAt(m.age),
    blockTime: NOW - m.age,
    wire: getBase64EncodedWireTransaction(compileTransaction(message)),
    err: m.failed ? { InstructionError: [0, { Custom: 1 }] } : null,
    loadedAddresses: { writable: [], readonly: [] },
    innerInstructions: m.viaMultisig
      ? [
          {
            instructions: [
              {
                programIdIndex: index(BPF_UPGRADEABLE_LOADER),
                accounts: (loader.accounts ?? []).map((a) => index(a.address)),
                data: getBase58Decoder().decode(loader.data ?? new Uint8Array()),
              },
            ],
          },
        ]
      : [],
  };
}

// ---------------------------------------------------------------------------------------------
// The builder: an upgradeable program, a single-key authority, deployed 400 days ago and
// upgraded 100 days ago, its whole management history read — plus overrides
// ---------------------------------------------------------------------------------------------

const QUIET: readonly Management[] = [
  { kind: 'deploy', age: 400 * DAY },
  { kind: 'upgrade', age: 100 * DAY },
];

interface ProgramSpec {
  /** The ProgramData's upgrade authority (None = null). */
  readonly authority?: Address | null;
  /** Key bytes left behind a None tag. */
  readonly staleAuthority?: Address;
  /** The ProgramData's last deploy slot; default: the newest successful deploy or upgrade. */
  readonly deploySlot?: bigint;
  readonly program?: RawAccount | null;
  readonly programData?: RawAccount | null;
  /** Management transactions, every one listed and read; null = getSignaturesForAddress failed. */
  readonly history?: readonly Management[] | null;
  readonly historyError?: string | null;
  /** Replaces the listed signatures or the transactions read (history, truncation). */
  readonly signatures?: ProgramFacts['signatures'];
  readonly transactions?: readonly RecordedTransaction[];
  readonly authorityAccount?: ProgramFacts['authorityAccount'];
  readonly squadsVault?: ProgramFacts['squadsVault'];
}

const listed = (txs: readonly RecordedTransaction[]) =>
  txs.map((t) => ({ signature: t.signature, slot: t.slot, blockTime: t.blockTime, err: t.err }));

function program(spec: ProgramSpec = {}): ProgramFacts {
  const history = spec.history === undefined ? QUIET : spec.history;
  const transactions = (history ?? []).map(recorded).sort((a, b) => Number(b.slot - a.slot)); // newest first, as the RPC lists them
  const deploys = (history ?? []).filter((m) => (m.kind === 'deploy' || m.kind === 'upgrade') && !m.failed);
  const deploySlot =
    spec.deploySlot ??
    (deploys.length > 0 ? slotAt(Math.min(...deploys.map((m) => m.age))) : slotAt(400 * DAY));
  const authority = spec.authority === undefined ? AUTHORITY : spec.authority;
  return {
    programId: PROGRAM_ID,
    program: spec.program === undefined ? PROGRAM_ACCOUNT : spec.program,
    programDataAddress: PROGRAM_DATA,
    programData:
      spec.programData === undefined
        ? account(BPF_UPGRADEABLE_LOADER, programDataBytes(deploySlot, authority, spec.staleAuthority))
        : spec.programData,
    signatures:
      spec.signatures !== undefined ? spec.signatures : history === null ? null : listed(transactions),
    historyError:
      spec.historyError !== undefined
        ? spec.historyError
        : history === null
          ? 'getSignaturesForAddress: 429 Too Many Requests'
          : null,
    transactions: spec.transactions ?? transactions,
    authorityAccount: spec.authorityAccount === undefined ? null : spec.authorityAccount,
    squadsVault: spec.squadsVault ?? null,
    nowSeconds: NOW,
  };
}

/** `count` signatures on ProgramData (transfers to it, older than everything else), newest first. */
function page(count: number): RecordedTransaction[] {
  return Array.from({ length: count }, (_, i) => {
    const tx = recorded({ kind: 'transfer', age: 500 * DAY + i * HOUR });
    return { ...tx, signature: signature(`filler ${i}`) };
  });
}

// ---------------------------------------------------------------------------------------------
// Running assess: every result is checked against the model's invariants
// ---------------------------------------------------------------------------------------------

const coverage = assessCoverage(PROGRAM_FLAGS, assessProgram);
const { assess, expectRaised, notRaised: expectNotRaised, weightOf } = coverage;

// ---------------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------------

describe('assessProgram (pure), flag by flag', () => {
  it('the baseline: a single-key authority, deployed 400 days ago and upgraded 100 days ago, whole history read', () => {
    const result = assess(program());
    assert.deepEqual(result.flags, ['UPGRADE_AUTHORITY_SINGLE_KEY']);
    assert.equal(result.risk_score, 0.6);
    assert.equal(result.confidence, 1);
    const evidence = result.evidence as Record<string, unknown>;
    assert.equal(evidence.upgrade_authority, AUTHORITY);
    assert.equal(evidence.authority_kind, 'keypair');
    assert.equal(evidence.last_deploy_slot, String(slotAt(100 * DAY)));
    assert.equal(evidence.first_deploy_time, iso(NOW - 400 * DAY));
    assert.equal(evidence.program_size_bytes, 64);
    assert.ok(
      result.reasoning.includes(
        '1 upgrade(s) and 0 authority change(s) in the 2 management transaction(s) read',
      ),
    );
    assert.match(
      result.summary,
      /^Program \w{4}…\w{4}: high risk, driven by UPGRADE_AUTHORITY_SINGLE_KEY\.$/,
    );
  });

  describe('NOT_A_PROGRAM: not an executable program', () => {
    it('no account at all', () => {
      const result = assess(program({ program: null }));
      expectRaised(result, 'NOT_A_PROGRAM', { exists: false, owner: null, executable: false });
      assert.deepEqual(result.flags, ['NOT_A_PROGRAM']);
      assert.match(result.summary, /^Address /);
    });

    it('a wallet; an executable account of a program that is no loader; a buffer of the upgradeable loader', () => {
      expectRaised(assess(program({ program: account(SYSTEM_PROGRAM, new Uint8Array()) })), 'NOT_A_PROGRAM', {
        exists: true,
        owner: SYSTEM_PROGRAM,
        executable: false,
      });
      expectRaised(
        assess(program({ program: account(CUSTOM_PROGRAM, new Uint8Array(64), true) })),
        'NOT_A_PROGRAM',
        { exists: true, owner: CUSTOM_PROGRAM, executable: true },
      );
      const buffer = account(BPF_UPGRADEABLE_LOADER, new Uint8Array([...u32(1), 1, ...address32(AUTHORITY)]));
      expectRaised(assess(program({ program: buffer })), 'NOT_A_PROGRAM', {
        exists: true,
        owner: BPF_UPGRADEABLE_LOADER,
        executable: false,
      });
    });

    it('not an executable program of the upgradeable loader', () => {
      expectNotRaised(assess(program()), 'NOT_A_PROGRAM', 'a deployed program');
    });
  });

  it('PROGRAM_CLOSED: the ProgramData account is gone or uninitialised; not while it holds ProgramData', () => {
    expectRaised(assess(program({ programData: null })), 'PROGRAM_CLOSED', { program_data: PROGRAM_DATA });
    expectRaised(
      assess(program({ programData: account(BPF_UPGRADEABLE_LOADER, u32(0)) })),
      'PROGRAM_CLOSED',
      { program_data: PROGRAM_DATA },
    );
    expectNotRaised(assess(program()), 'PROGRAM_CLOSED', 'ProgramData is there');
  });

  describe('PROGRAM_IMMUTABLE: nobody can change the code', () => {
    it('an upgradeable program whose authority tag is None, even over stale key bytes: risk 0', () => {
      const none = assess(program({ authority: null }));
      expectRaised(none, 'PROGRAM_IMMUTABLE', { loader: BPF_UPGRADEABLE_LOADER });
      assert.equal(none.risk_score, 0);
      const stale = assess(program({ authority: null, staleAuthority: AUTHORITY }));
      expectRaised(stale, 'PROGRAM_IMMUTABLE', { loader: BPF_UPGRADEABLE_LOADER });
      expectNotRaised(stale, 'UPGRADE_AUTHORITY_SINGLE_KEY', 'the tag is None; the key bytes are stale');
      assert.equal((stale.evidence as Record<string, unknown>).authority_kind, 'none');
    });

    it('the loaders without upgrades (v1, v2) and a finalized loader-v4 program', () => {
      for (const loader of [BPF_LOADER_1, BPF_LOADER_2]) {
        const result = assess(program({ program: account(loader, new Uint8Array(64), true) }));
        expectRaised(result, 'PROGRAM_IMMUTABLE', { loader });
        assert.deepEqual(result.flags, ['PROGRAM_IMMUTABLE']);
      }
      expectRaised(assess(program({ program: loaderV4Program(AUTHORITY, 2n) })), 'PROGRAM_IMMUTABLE', {
        loader: LOADER_V4,
      });
    });

    it('not with an authority tag of Some, nor a deployed loader-v4 program', () => {
      expectNotRaised(assess(program()), 'PROGRAM_IMMUTABLE', 'the authority is set');
      expectNotRaised(
        assess(program({ program: loaderV4Program(AUTHORITY, 1n) })),
        'PROGRAM_IMMUTABLE',
        'v4, deployed',
      );
    });
  });

  it('UPGRADE_AUTHORITY_SINGLE_KEY: an on-curve key (upgradeable or loader v4), at high weight; not a program-derived address', () => {
    const key = assess(program());
    expectRaised(key, 'UPGRADE_AUTHORITY_SINGLE_KEY', { upgrade_authority: AUTHORITY });
    assert.equal(weightOf(key, 'UPGRADE_AUTHORITY_SINGLE_KEY'), 0.6);
    expectRaised(
      assess(program({ program: loaderV4Program(AUTHORITY, 1n) })),
      'UPGRADE_AUTHORITY_SINGLE_KEY',
      {
        upgrade_authority: AUTHORITY,
      },
    );
    expectNotRaised(assess(program({ authority: CUSTOM_PDA })), 'UPGRADE_AUTHORITY_SINGLE_KEY', 'a PDA');
    expectNotRaised(
      assess(program({ authority: MULTISIG, authorityAccount: squads(1) })),
      'UPGRADE_AUTHORITY_SINGLE_KEY',
      'a 1-of-3 multisig is still a multisig account',
    );
  });

  describe('UPGRADE_AUTHORITY_MULTISIG: a Squads v4 multisig (low from a threshold of 2, medium at 1)', () => {
    it('the authority is the multisig account: threshold, voting members (not proposers), time lock', () => {
      const two = assess(program({ authority: MULTISIG, authorityAccount: squads(2) }));
      expectRaised(two, 'UPGRADE_AUTHORITY_MULTISIG', {
        multisig: MULTISIG,
        threshold: 2,
        voters: 3,
        time_lock_seconds: 3600,
      });
      assert.equal(weightOf(two, 'UPGRADE_AUTHORITY_MULTISIG'), 0.1);
      const one = assess(program({ authority: MULTISIG, authorityAccount: squads(1) }));
      expectRaised(one, 'UPGRADE_AUTHORITY_MULTISIG', {
        multisig: MULTISIG,
        threshold: 1,
        voters: 3,
        time_lock_seconds: 3600,
      });
      assert.equal(weightOf(one, 'UPGRADE_AUTHORITY_MULTISIG'), 0.3, 'a threshold of 1 is one key: medium');
    });

    it("the authority is the multisig's vault (as on mainnet): the multisig's rules, and the vault", () => {
      const result = assess(
        program({
          authority: VAULT,
          authorityAccount: account(SYSTEM_PROGRAM, new Uint8Array()),
          squadsVault: { multisig: MULTISIG, index: 0, account: squads(3) },
        }),
      );
      const found = expectRaised(result, 'UPGRADE_AUTHORITY_MULTISIG', {
        multisig: MULTISIG,
        threshold: 3,
        voters: 3,
        time_lock_seconds: 3600,
      });
      assert.equal(found.vault, VAULT);
      assert.equal(found.vault_index, 0);
      expectNotRaised(result, 'UPGRADE_AUTHORITY_UNKNOWN_PDA', 'the vault is explained');
    });

    it('not multisig bytes owned by another program, Squads-owned bytes that are no multisig, nor an unread vault multisig', () => {
      const forged = assess(
        program({ authority: CUSTOM_PDA, authorityAccount: squads(2, null, CUSTOM_PROGRAM) }),
      );
      expectNotRaised(
        forged,
        'UPGRADE_AUTHORITY_MULTISIG',
        'the layout of a multisig, owned by another program',
      );
      const garbage = assess(
        program({ authority: MULTISIG, authorityAccount: account(SQUADS_V4_PROGRAM, new Uint8Array(40)) }),
      );
      expectNotRaised(garbage, 'UPGRADE_AUTHORITY_MULTISIG', 'no multisig in the bytes');
      const unread = assess(
        program({ authority: VAULT, squadsVault: { multisig: MULTISIG, index: 0, account: 'unavailable' } }),
      );
      expectNotRaised(unread, 'UPGRADE_AUTHORITY_MULTISIG', 'the multisig could not be read');
    });
  });

  it('MULTISIG_CONFIG_AUTHORITY_SET: a config authority on the multisig; not an autonomous one (zero key)', () => {
    expectRaised(
      assess(program({ authority: MULTISIG, authorityAccount: squads(2, CONFIG_AUTHORITY) })),
      'MULTISIG_CONFIG_AUTHORITY_SET',
      { multisig: MULTISIG, config_authority: CONFIG_AUTHORITY },
    );
    expectRaised(
      assess(
        program({
          authority: VAULT,
          squadsVault: { multisig: MULTISIG, index: 0, account: squads(2, CONFIG_AUTHORITY) },
        }),
      ),
      'MULTISIG_CONFIG_AUTHORITY_SET',
      { multisig: MULTISIG, config_authority: CONFIG_AUTHORITY },
    );
    expectNotRaised(
      assess(program({ authority: MULTISIG, authorityAccount: squads(2, null) })),
      'MULTISIG_CONFIG_AUTHORITY_SET',
      'autonomous multisig',
    );
  });

  it('UPGRADE_AUTHORITY_UNKNOWN_PDA: a PDA owned by an unknown program, or with no account; not a readable multisig', () => {
    expectRaised(
      assess(
        program({ authority: CUSTOM_PDA, authorityAccount: account(CUSTOM_PROGRAM, new Uint8Array(100)) }),
      ),
      'UPGRADE_AUTHORITY_UNKNOWN_PDA',
      { upgrade_authority: CUSTOM_PDA, authority_owner: CUSTOM_PROGRAM },
    );
    expectRaised(assess(program({ authority: CUSTOM_PDA })), 'UPGRADE_AUTHORITY_UNKNOWN_PDA', {
      upgrade_authority: CUSTOM_PDA,
      authority_owner: null,
    });
    expectRaised(
      assess(
        program({ authority: MULTISIG, authorityAccount: account(SQUADS_V4_PROGRAM, new Uint8Array(40)) }),
      ),
      'UPGRADE_AUTHORITY_UNKNOWN_PDA',
      { upgrade_authority: MULTISIG, authority_owner: SQUADS_V4_PROGRAM },
    );
    expectNotRaised(
      assess(program({ authority: MULTISIG, authorityAccount: squads(2) })),
      'UPGRADE_AUTHORITY_UNKNOWN_PDA',
      'a Squads multisig',
    );
  });

  describe('Squads v3, Coral multisig and SPL Governance authorities (real mainnet bytes)', () => {
    const dump = (file: string) => {
      const d = loadAccount(file);
      return { address: d.address as Address, account: account(d.owner, d.data) };
    };
    const coral = dump('marinade-coral-multisig.json');
    const v3 = dump('jupiter-squads-v3-multisig.json');
    const gov = dump('pyth-staking-program-governance.json');
    const realm = dump('pyth-governance-realm.json');
    const SIGNER = '551FBXSXdhcRDDkdcb3ThDRg84Mwe5Zs6YjJ1EEoyzBp' as Address;
    const V3_VAULT = 'CvQZZ23qYDWF2RUpxYJ8y9K4skmuvYEEjH7fK58jtipQ' as Address;
    const governed = (authority: Address, governor: NonNullable<ProgramFacts['governor']>): ProgramFacts => ({
      ...program({
        authority,
        authorityAccount: governor.lead.path.type === 'governance' ? governor.account : null,
      }),
      governor,
    });
    const coralGovernor = (derivedAuthority: Address | null, read = coral.account) => ({
      lead: {
        kind: 'coral-multisig' as const,
        program: CORAL_MULTISIG_PROGRAM,
        address: coral.address,
        path: { type: 'coral-signer' as const },
      },
      account: read,
      derivedAuthority,
      realm: null,
    });

    it("Coral: the signer's multisig, 6 of 13 owners with no time lock, at low weight", () => {
      const found = expectRaised(
        assess(governed(SIGNER, coralGovernor(SIGNER))),
        'UPGRADE_AUTHORITY_MULTISIG',
        {
          multisig: coral.address,
          threshold: 6,
          voters: 13,
          time_lock_seconds: 0,
        },
      );
      assert.equal(found.kind, 'coral-multisig');
      assert.equal(found.signer, SIGNER);
      assert.equal(
        weightOf(assess(governed(SIGNER, coralGovernor(SIGNER))), 'UPGRADE_AUTHORITY_MULTISIG'),
        0.1,
      );
    });

    it('Squads v3: authority 1 of a 4-of-7 multisig', () => {
      const found = expectRaised(
        assess(
          governed(V3_VAULT, {
            lead: {
              kind: 'squads-v3',
              program: SQUADS_V3_PROGRAM,
              address: v3.address,
              path: { type: 'squads-v3-authority', index: 1 },
            },
            account: v3.account,
            derivedAuthority: V3_VAULT,
            realm: null,
          }),
        ),
        'UPGRADE_AUTHORITY_MULTISIG',
        { multisig: v3.address, threshold: 4, voters: 7, time_lock_seconds: 0 },
      );
      assert.deepEqual([found.kind, found.vault, found.vault_index], ['squads-v3', V3_VAULT, 1]);
    });

    it('SPL Governance: the voting rules, and the realm when it could be read', () => {
      const governor = (realmRead: NonNullable<ProgramFacts['governor']>['realm']) => ({
        lead: {
          kind: 'spl-governance' as const,
          program: PYTH_GOVERNANCE_PROGRAM,
          address: gov.address,
          path: { type: 'governance' as const },
        },
        account: gov.account,
        derivedAuthority: gov.address,
        realm: realmRead,
      });
      const rules = {
        governance: gov.address,
        realm: realm.address,
        community_vote_threshold: { type: 'yes-vote-percentage', percent: 67 },
        council_vote_threshold: { type: 'disabled' },
        voting_time_seconds: 604_800,
        hold_up_seconds: 0,
      };
      const found = expectRaised(
        assess(governed(gov.address, governor(realm.account))),
        'UPGRADE_AUTHORITY_GOVERNANCE',
        rules,
      );
      assert.equal(found.realm_name, 'Pyth Governance');
      const blind = expectRaised(
        assess(governed(gov.address, governor('unavailable'))),
        'UPGRADE_AUTHORITY_GOVERNANCE',
        rules,
      );
      assert.equal(blind.realm_name, null, 'an unread realm leaves its name unknown, the rules stand');
    });

    it('not when the account derives another authority, is owned by another program, or was not read', () => {
      const other = 'J1QBcjR2m3Vn5SSFobGJNwvN8XwykV2nYEkKQSsAC4Ba' as Address;
      for (const [what, facts] of [
        ['derives another key', governed(SIGNER, coralGovernor(other))],
        ['derives nothing', governed(SIGNER, coralGovernor(null))],
        [
          'owned by Squads v3',
          governed(SIGNER, coralGovernor(SIGNER, account(SQUADS_V3_PROGRAM, coral.account.data))),
        ],
        [
          'Squads v3 bytes under the Coral program',
          governed(SIGNER, coralGovernor(SIGNER, account(CORAL_MULTISIG_PROGRAM, v3.account.data))),
        ],
      ] as const) {
        const result = assess(facts);
        expectNotRaised(result, 'UPGRADE_AUTHORITY_MULTISIG', what);
        expectRaised(result, 'UPGRADE_AUTHORITY_UNKNOWN_PDA', {
          upgrade_authority: SIGNER,
          authority_owner: null,
        });
      }
      const unread = assess(governed(SIGNER, { ...coralGovernor(SIGNER), account: 'unavailable' }));
      expectNotRaised(unread, 'UPGRADE_AUTHORITY_MULTISIG', 'the multisig could not be read');
    });
  });

  it('AUTHORITY_UNAVAILABLE: a PDA authority whose account could not be read (confidence −0.2); a key needs no read', () => {
    const unread = assess(program({ authority: CUSTOM_PDA, authorityAccount: 'unavailable' }));
    expectRaised(unread, 'AUTHORITY_UNAVAILABLE', { upgrade_authority: CUSTOM_PDA, reason: 'RPC error' });
    assert.equal(unread.confidence, 0.8);
    const key = assess(program({ authorityAccount: 'unavailable' }));
    expectNotRaised(key, 'AUTHORITY_UNAVAILABLE', 'an on-curve key is a single key whatever its account');
    assert.deepEqual(key, assess(program()));
  });

  describe('RECENTLY_UPGRADED: the last deploy slot landed under 7 days ago (medium under 24 hours, low after)', () => {
    const upgraded = (age: number, extra: readonly Management[] = []) =>
      assess(program({ history: [{ kind: 'deploy', age: 400 * DAY }, { kind: 'upgrade', age }, ...extra] }));

    it('one second inside 24 hours: medium', () => {
      const result = upgraded(DAY - 1);
      expectRaised(result, 'RECENTLY_UPGRADED', {
        last_deploy_slot: String(slotAt(DAY - 1)),
        last_deploy_time: iso(NOW - DAY + 1),
        hours_since: 24,
      });
      assert.equal(weightOf(result, 'RECENTLY_UPGRADED'), 0.3);
    });

    it('exactly 24 hours: low', () => {
      const result = upgraded(DAY);
      expectRaised(result, 'RECENTLY_UPGRADED', {
        last_deploy_slot: String(slotAt(DAY)),
        last_deploy_time: iso(NOW - DAY),
        hours_since: 24,
      });
      assert.equal(weightOf(result, 'RECENTLY_UPGRADED'), 0.1);
    });

    it('one second inside 7 days: low; exactly 7 days: not raised', () => {
      const inside = upgraded(7 * DAY - 1);
      expectRaised(inside, 'RECENTLY_UPGRADED', {
        last_deploy_slot: String(slotAt(7 * DAY - 1)),
        last_deploy_time: iso(NOW - 7 * DAY + 1),
        hours_since: 168,
      });
      assert.equal(weightOf(inside, 'RECENTLY_UPGRADED'), 0.1);
      expectNotRaised(upgraded(7 * DAY), 'RECENTLY_UPGRADED', 'exactly 7 days ago');
    });

    it('not for a failed upgrade an hour ago when the code last changed 8 days ago', () => {
      const result = upgraded(8 * DAY, [{ kind: 'upgrade', age: HOUR, failed: true }]);
      expectNotRaised(result, 'RECENTLY_UPGRADED', 'the failed upgrade changed nothing');
    });
  });

  describe('FREQUENT_UPGRADES: three or more upgrades within 30 days', () => {
    const upgrades = (...list: Management[]) =>
      assess(program({ history: [{ kind: 'deploy', age: 400 * DAY }, ...list] }));

    it('the third one second inside 30 days; every signature, oldest first', () => {
      const list: Management[] = [
        { kind: 'upgrade', age: 30 * DAY - 1 },
        { kind: 'upgrade', age: 2 * DAY },
        { kind: 'upgrade', age: DAY },
      ];
      expectRaised(upgrades(...list), 'FREQUENT_UPGRADES', {
        upgrades_30d: 3,
        signatures: list.map((m) => recorded(m).signature),
      });
    });

    it('an upgrade the Squads vault executed (an inner loader instruction) counts', () => {
      const list: Management[] = [
        { kind: 'upgrade', age: 3 * DAY, viaMultisig: true },
        { kind: 'upgrade', age: 2 * DAY },
        { kind: 'upgrade', age: DAY },
      ];
      expectRaised(upgrades(...list), 'FREQUENT_UPGRADES', {
        upgrades_30d: 3,
        signatures: list.map((m) => recorded(m).signature),
      });
    });

    it('not when the third is exactly 30 days old, failed, or the deploy', () => {
      const two: Management[] = [
        { kind: 'upgrade', age: 2 * DAY },
        { kind: 'upgrade', age: DAY },
      ];
      expectNotRaised(
        upgrades({ kind: 'upgrade', age: 30 * DAY }, ...two),
        'FREQUENT_UPGRADES',
        '30 days old',
      );
      expectNotRaised(
        upgrades({ kind: 'upgrade', age: 3 * DAY, failed: true }, ...two),
        'FREQUENT_UPGRADES',
        'a failed upgrade',
      );
      const fresh = assess(program({ history: [{ kind: 'deploy', age: 20 * DAY }, ...two] }));
      expectNotRaised(fresh, 'FREQUENT_UPGRADES', 'a deploy is not an upgrade');
    });
  });

  describe('AUTHORITY_CHANGED_RECENTLY: the upgrade authority changed hands within 30 days', () => {
    const changed = (...list: Management[]) =>
      assess(program({ authority: NEW_AUTHORITY, history: [...QUIET, ...list] }));

    it('SetAuthority one second inside 30 days', () => {
      const change: Management = { kind: 'set_authority', age: 30 * DAY - 1, to: NEW_AUTHORITY };
      expectRaised(changed(change), 'AUTHORITY_CHANGED_RECENTLY', {
        signature: recorded(change).signature,
        new_authority: NEW_AUTHORITY,
        time: iso(NOW - 30 * DAY + 1),
      });
    });

    it('SetAuthorityChecked; of two changes, the latest is reported', () => {
      const change: Management = { kind: 'set_authority_checked', age: DAY, to: NEW_AUTHORITY };
      expectRaised(changed(change), 'AUTHORITY_CHANGED_RECENTLY', {
        signature: recorded(change).signature,
        new_authority: NEW_AUTHORITY,
        time: iso(NOW - DAY),
      });
      const latest: Management = { kind: 'set_authority', age: 5 * DAY, to: NEW_AUTHORITY };
      expectRaised(
        changed({ kind: 'set_authority', age: 10 * DAY, to: CONFIG_AUTHORITY }, latest),
        'AUTHORITY_CHANGED_RECENTLY',
        { signature: recorded(latest).signature, new_authority: NEW_AUTHORITY, time: iso(NOW - 5 * DAY) },
      );
    });

    it('not exactly 30 days ago, not when it failed, and not when the authority was given up (immutable)', () => {
      expectNotRaised(
        changed({ kind: 'set_authority', age: 30 * DAY, to: NEW_AUTHORITY }),
        'AUTHORITY_CHANGED_RECENTLY',
        '30 days ago',
      );
      expectNotRaised(
        changed({ kind: 'set_authority', age: DAY, to: NEW_AUTHORITY, failed: true }),
        'AUTHORITY_CHANGED_RECENTLY',
        'a failed change',
      );
      const givenUp = assess(
        program({ authority: null, history: [...QUIET, { kind: 'set_authority', age: DAY, to: null }] }),
      );
      expectNotRaised(givenUp, 'AUTHORITY_CHANGED_RECENTLY', 'giving the authority up is no risk');
      assert.ok(givenUp.reasoning.some((line) => line.startsWith('1 upgrade(s) and 1 authority change(s)')));
    });
  });

  it('PROGRAM_NEW: first deployed one second inside 7 days, the whole history read; not exactly 7 days ago', () => {
    expectRaised(assess(program({ history: [{ kind: 'deploy', age: 7 * DAY - 1 }] })), 'PROGRAM_NEW', {
      deployed_at: iso(NOW - 7 * DAY + 1),
    });
    const week = assess(program({ history: [{ kind: 'deploy', age: 7 * DAY }] }));
    expectNotRaised(week, 'PROGRAM_NEW', 'exactly 7 days old');
    assert.equal((week.evidence as Record<string, unknown>).first_deploy_time, iso(NOW - 7 * DAY));
  });

  describe(`HISTORY_TRUNCATED: a full page of ${HISTORY_LIMIT} signatures, or fewer transactions read than listed (of the first 20)`, () => {
    it(`${HISTORY_LIMIT} signatures, the newest 20 read (confidence −0.1, no weight); not ${HISTORY_LIMIT - 1}, all read`, () => {
      const full = page(HISTORY_LIMIT);
      const result = assess(program({ signatures: listed(full), transactions: full.slice(0, 20) }));
      expectRaised(result, 'HISTORY_TRUNCATED', { signatures_read: 20 });
      assert.equal(result.confidence, 0.9);
      assert.equal(weightOf(result, 'HISTORY_TRUNCATED'), 0);
      const almost = page(HISTORY_LIMIT - 1);
      expectNotRaised(
        assess(program({ signatures: listed(almost), transactions: almost })),
        'HISTORY_TRUNCATED',
        `${HISTORY_LIMIT - 1} signatures`,
      );
    });

    it('20 signatures, 19 transactions read (one getTransaction failed); not all 20 read', () => {
      const twenty = page(20);
      expectRaised(
        assess(program({ signatures: listed(twenty), transactions: twenty.slice(0, 19) })),
        'HISTORY_TRUNCATED',
        {
          signatures_read: 19,
        },
      );
      expectNotRaised(
        assess(program({ signatures: listed(twenty), transactions: twenty })),
        'HISTORY_TRUNCATED',
        'every listed transaction read',
      );
    });
  });

  it('HISTORY_UNAVAILABLE: the signatures could not be listed (confidence −0.3); not an empty history', () => {
    const blind = assess(program({ history: null }));
    expectRaised(blind, 'HISTORY_UNAVAILABLE', { reason: 'getSignaturesForAddress: 429 Too Many Requests' });
    assert.equal(blind.confidence, 0.7);
    expectRaised(assess(program({ history: null, historyError: null })), 'HISTORY_UNAVAILABLE', {
      reason: 'unknown',
    });
    const empty = assess(program({ history: [] }));
    expectNotRaised(empty, 'HISTORY_UNAVAILABLE', 'the history was read; nothing is in it');
    assert.equal(empty.confidence, 1);
  });
});

describe('assessProgram (pure), missing data', () => {
  /** Authorities of every kind, with a quiet management history. */
  const variants: Record<string, ProgramSpec> = {
    'single key': {},
    immutable: { authority: null },
    '2-of-3 multisig': { authority: MULTISIG, authorityAccount: squads(2) },
    '1-of-3 multisig with a config authority': {
      authority: MULTISIG,
      authorityAccount: squads(1, CONFIG_AUTHORITY),
    },
    'Squads vault': { authority: VAULT, squadsVault: { multisig: MULTISIG, index: 0, account: squads(2) } },
    'unknown PDA': { authority: CUSTOM_PDA, authorityAccount: account(CUSTOM_PROGRAM, new Uint8Array(100)) },
  };
  const full = page(HISTORY_LIMIT);
  const blinders: Record<string, (spec: ProgramSpec) => ProgramSpec> = {
    'history unlisted': (spec) => ({ ...spec, history: null }),
    'history truncated': (spec) => ({ ...spec, signatures: listed(full), transactions: full.slice(0, 20) }),
    'a listed transaction unread': (spec) => ({ ...spec, transactions: program(spec).transactions.slice(1) }),
  };

  for (const [name, spec] of Object.entries(variants)) {
    it(`${name}: an unread history lowers confidence and never lowers the score`, () => {
      const known = assess(program(spec));
      for (const [what, blind] of Object.entries(blinders)) {
        assertBlindedIsNoSafer(known, assess(program(blind(spec))), what);
      }
    });
  }

  it('an unreadable PDA authority scores at least what the safest readable one does (a 2-of-3 autonomous multisig)', () => {
    const safest = assess(program(variants['2-of-3 multisig']!));
    for (const authority of [MULTISIG, VAULT, CUSTOM_PDA]) {
      const unread = assess(program({ authority, authorityAccount: 'unavailable' }));
      assert.ok(unread.confidence < safest.confidence);
      assert.ok(unread.risk_score >= safest.risk_score, `${unread.risk_score} >= ${safest.risk_score}`);
    }
  });

  it('an unlisted history and an unread authority compound: confidence 0.7 × 0.8; unknown scores above immutable', () => {
    const both = assess(program({ authority: CUSTOM_PDA, authorityAccount: 'unavailable', history: null }));
    assert.equal(both.confidence, 0.56);
    assert.ok(both.risk_score > assess(program(variants.immutable!)).risk_score);
  });
});

describe('assessProgram (pure), catalog coverage', () => {
  it('every flag in PROGRAM_FLAGS is raised by a test above', () => {
    coverage.assertEveryFlagRaised();
    coverage.assertEveryResultChecked(60);
  });
});
