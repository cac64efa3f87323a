/**
 * assessProgram, flag by flag: loader account bytes in the upgradeable loader's layout, a
 * Squads v4 multisig in its Anchor layout, and management history as real wire transactions
 * carrying loader instructions — the condition that raises each flag and the closest one that
 * must not.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  AccountRole,
  type Address,
  generateKeyPairSigner,
  getAddressEncoder,
  getProgramDerivedAddress,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit';
import { encodeSquadsMultisig } from '../../../src/sandbox/scenarios/builders/layouts.js';
import { assessProgram } from '../../../src/scans/program/assess.js';
import { HISTORY_LIMIT, type ProgramFacts, type RawAccount } from '../../../src/scans/program/facts.js';
import { PROGRAM_FLAGS } from '../../../src/scans/program/flags.js';
import type { RecordedTransaction } from '../../../src/scans/program/history.js';
import {
  BPF_LOADER_2,
  BPF_UPGRADEABLE_LOADER,
  SQUADS_V4_PROGRAM,
  SYSTEM_PROGRAM,
} from '../../../src/solana/programs.js';
import { flagCoverage } from '../../helpers/flag-coverage.js';
import { signedWire } from '../../helpers/wire-transactions.js';
import { loadAccount } from '../../solana/fixtures.js';

const NOW = 1_800_000_000;
const HOUR = 3600;
const DAY = 24 * HOUR;
const DEPLOY_SLOT = 250_000_000n;
const address32 = (a: Address) => getAddressEncoder().encode(a) as Uint8Array;

function u32(tag: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, tag, true);
  return out;
}

/** ProgramData: tag 3, last deploy slot, Option<authority>, then the ELF. */
function programDataBytes(slot: bigint, authority: Address | null): Uint8Array {
  const header = new Uint8Array(45 + 64);
  const view = new DataView(header.buffer);
  view.setUint32(0, 3, true);
  view.setBigUint64(4, slot, true);
  if (authority !== null) {
    header[12] = 1;
    header.set(address32(authority), 13);
  }
  return header;
}

const account = (owner: Address, data: Uint8Array, executable = false): RawAccount => ({
  owner,
  executable,
  lamports: 1_000_000n,
  data,
});

describe('assessProgram, flag by flag', () => {
  const flags = flagCoverage(PROGRAM_FLAGS);
  let programId: Address;
  let programData: Address;
  let authority: KeyPairSigner;
  let newKey: Address;
  let pda: Address;
  let facts: (over?: Partial<ProgramFacts>) => ProgramFacts;
  let squads: (threshold: number, configAuthority: Address | null) => RawAccount;
  /** One loader instruction in a signed transaction, landed `ageSeconds` ago at `slot`. */
  let recorded: (
    kind: 'deploy' | 'upgrade' | 'set_authority',
    ageSeconds: number,
    slot: bigint,
    to?: Address | null,
  ) => Promise<RecordedTransaction>;
  /** Signatures and transactions for these management transactions, newest first. */
  const history = (txs: readonly RecordedTransaction[]) => {
    const sorted = [...txs].sort((a, b) => Number(b.slot - a.slot));
    return {
      signatures: sorted.map((t) => ({
        signature: t.signature,
        slot: t.slot,
        blockTime: t.blockTime,
        err: null,
      })),
      transactions: sorted,
    };
  };

  before(async () => {
    authority = await generateKeyPairSigner();
    [programId, newKey] = (await Promise.all(
      [0, 1].map(async () => (await generateKeyPairSigner()).address),
    )) as [Address, Address];
    [programData] = await getProgramDerivedAddress({
      programAddress: BPF_UPGRADEABLE_LOADER,
      seeds: [address32(programId)],
    });
    [pda] = await getProgramDerivedAddress({
      programAddress: SQUADS_V4_PROGRAM,
      seeds: ['multisig', 'test'],
    });
    const programAccount = account(
      BPF_UPGRADEABLE_LOADER,
      new Uint8Array([...u32(2), ...address32(programData)]),
      true,
    );
    facts = (over = {}) => ({
      programId,
      program: programAccount,
      programDataAddress: programData,
      programData: account(BPF_UPGRADEABLE_LOADER, programDataBytes(DEPLOY_SLOT, authority.address)),
      signatures: [],
      historyError: null,
      transactions: [],
      authorityAccount: null,
      squadsVault: null,
      nowSeconds: NOW,
      ...over,
    });
    squads = (threshold, configAuthority) =>
      account(
        SQUADS_V4_PROGRAM,
        encodeSquadsMultisig({
          createKey: newKey,
          configAuthority,
          threshold,
          timeLockSeconds: 3600,
          transactionIndex: 7n,
          staleTransactionIndex: 0n,
          rentCollector: null,
          bump: 255,
          members: [authority.address, newKey, programId].map((key) => ({ key, permissions: 7 })),
        }),
      );
    let n = 0;
    recorded = async (kind, ageSeconds, slot, to = null) => {
      const signer = { address: authority.address, role: AccountRole.READONLY_SIGNER, signer: authority };
      const w = (a: Address) => ({ address: a, role: AccountRole.WRITABLE });
      const r = (a: Address) => ({ address: a, role: AccountRole.READONLY });
      const ix: Instruction =
        kind === 'deploy'
          ? {
              programAddress: BPF_UPGRADEABLE_LOADER,
              accounts: [signer, w(programData), w(programId), w(newKey), r(SYSTEM_PROGRAM), signer],
              data: new Uint8Array([...u32(2), 0, 1, 0, 0, 0, 0, 0, 0]),
            }
          : kind === 'upgrade'
            ? {
                programAddress: BPF_UPGRADEABLE_LOADER,
                accounts: [
                  w(programData),
                  w(programId),
                  w(newKey),
                  w(authority.address),
                  r(SYSTEM_PROGRAM),
                  signer,
                ],
                data: u32(3),
              }
            : {
                programAddress: BPF_UPGRADEABLE_LOADER,
                accounts: [w(programData), signer, ...(to ? [r(to)] : [])],
                data: u32(4),
              };
      return {
        signature: `management-${n++}`,
        slot,
        blockTime: NOW - ageSeconds,
        wire: await signedWire(authority, [ix]),
        err: null,
        loadedAddresses: { writable: [], readonly: [] },
        innerInstructions: [],
      };
    };
  });

  it('NOT_A_PROGRAM: no account, or a wallet; not an executable program', () => {
    flags.raised(assessProgram(facts({ program: null })), 'NOT_A_PROGRAM', {
      exists: false,
      executable: false,
    });
    const wallet = assessProgram(facts({ program: account(SYSTEM_PROGRAM, new Uint8Array()) }));
    flags.raised(wallet, 'NOT_A_PROGRAM', { exists: true, owner: SYSTEM_PROGRAM });
    assert.match(wallet.summary, /^Address /);
    flags.notRaised(assessProgram(facts()), 'NOT_A_PROGRAM');
  });

  it('PROGRAM_CLOSED: its ProgramData account is gone; not while it exists', () => {
    flags.raised(assessProgram(facts({ programData: null })), 'PROGRAM_CLOSED', {
      program_data: programData,
    });
    flags.notRaised(assessProgram(facts()), 'PROGRAM_CLOSED');
  });

  it('PROGRAM_IMMUTABLE: authority None, or a non-upgradeable loader; not with an authority', () => {
    const none = facts({ programData: account(BPF_UPGRADEABLE_LOADER, programDataBytes(DEPLOY_SLOT, null)) });
    const immutable = assessProgram(none);
    flags.raised(immutable, 'PROGRAM_IMMUTABLE', { loader: BPF_UPGRADEABLE_LOADER });
    assert.equal(immutable.risk_score, 0);
    flags.raised(
      assessProgram(facts({ program: account(BPF_LOADER_2, new Uint8Array(64), true) })),
      'PROGRAM_IMMUTABLE',
      {
        loader: BPF_LOADER_2,
      },
    );
    flags.notRaised(assessProgram(facts()), 'PROGRAM_IMMUTABLE');
  });

  it('UPGRADE_AUTHORITY_SINGLE_KEY: an on-curve key; not a program-derived address', () => {
    flags.raised(assessProgram(facts()), 'UPGRADE_AUTHORITY_SINGLE_KEY', {
      upgrade_authority: authority.address,
    });
    const pdaOwned = facts({
      programData: account(BPF_UPGRADEABLE_LOADER, programDataBytes(DEPLOY_SLOT, pda)),
    });
    flags.notRaised(assessProgram(pdaOwned), 'UPGRADE_AUTHORITY_SINGLE_KEY');
  });

  it('UPGRADE_AUTHORITY_MULTISIG: a Squads v4 multisig with its threshold; 1-of-n weighs more than 2-of-n; garbage bytes are not a multisig', () => {
    const governed = (authorityAccount: ProgramFacts['authorityAccount']) =>
      assessProgram(
        facts({
          programData: account(BPF_UPGRADEABLE_LOADER, programDataBytes(DEPLOY_SLOT, pda)),
          authorityAccount,
        }),
      );
    const two = flags.raised(governed(squads(2, null)), 'UPGRADE_AUTHORITY_MULTISIG', {
      multisig: pda,
      threshold: 2,
      voters: 3,
      time_lock_seconds: 3600,
    });
    const one = flags.raised(governed(squads(1, null)), 'UPGRADE_AUTHORITY_MULTISIG', { threshold: 1 });
    assert.ok((one.weight_applied as number) > (two.weight_applied as number));
    const garbage = governed(account(SQUADS_V4_PROGRAM, new Uint8Array(40)));
    flags.notRaised(garbage, 'UPGRADE_AUTHORITY_MULTISIG');
    flags.raised(garbage, 'UPGRADE_AUTHORITY_UNKNOWN_PDA', { authority_owner: SQUADS_V4_PROGRAM });
  });

  it('UPGRADE_AUTHORITY_GOVERNANCE: a real SPL Governance account that derives the authority; not one that derives another', () => {
    const governance = loadAccount('pyth-staking-program-governance.json');
    const realm = loadAccount('pyth-governance-realm.json');
    const holder = governance.address as Address;
    const read = (dump: typeof governance) => account(dump.owner, dump.data);
    const governed = (derivedAuthority: Address) =>
      assessProgram(
        facts({
          programData: account(BPF_UPGRADEABLE_LOADER, programDataBytes(DEPLOY_SLOT, holder)),
          authorityAccount: read(governance),
          governor: {
            lead: {
              kind: 'spl-governance',
              program: governance.owner,
              address: holder,
              path: { type: 'governance' },
            },
            account: read(governance),
            derivedAuthority,
            realm: read(realm),
          },
        }),
      );
    flags.raised(governed(holder), 'UPGRADE_AUTHORITY_GOVERNANCE', {
      governance: holder,
      realm: realm.address,
      community_vote_threshold: { type: 'yes-vote-percentage', percent: 67 },
      council_vote_threshold: { type: 'disabled' },
      voting_time_seconds: 604_800,
      hold_up_seconds: 0,
    });
    const elsewhere = governed(pda);
    flags.notRaised(elsewhere, 'UPGRADE_AUTHORITY_GOVERNANCE');
    flags.raised(elsewhere, 'UPGRADE_AUTHORITY_UNKNOWN_PDA', { upgrade_authority: holder });
  });

  it('MULTISIG_CONFIG_AUTHORITY_SET: a config authority can change the multisig without a vote; not when autonomous', () => {
    const governed = (configAuthority: Address | null) =>
      assessProgram(
        facts({
          programData: account(BPF_UPGRADEABLE_LOADER, programDataBytes(DEPLOY_SLOT, pda)),
          authorityAccount: squads(3, configAuthority),
        }),
      );
    flags.raised(governed(newKey), 'MULTISIG_CONFIG_AUTHORITY_SET', {
      multisig: pda,
      config_authority: newKey,
    });
    flags.notRaised(governed(null), 'MULTISIG_CONFIG_AUTHORITY_SET');
  });

  it('UPGRADE_AUTHORITY_UNKNOWN_PDA: a program-derived address no known program explains; not a Squads multisig', () => {
    const owned = (authorityAccount: ProgramFacts['authorityAccount']) =>
      assessProgram(
        facts({
          programData: account(BPF_UPGRADEABLE_LOADER, programDataBytes(DEPLOY_SLOT, pda)),
          authorityAccount,
        }),
      );
    flags.raised(owned(null), 'UPGRADE_AUTHORITY_UNKNOWN_PDA', {
      upgrade_authority: pda,
      authority_owner: null,
    });
    flags.notRaised(owned(squads(3, null)), 'UPGRADE_AUTHORITY_UNKNOWN_PDA');
  });

  it('AUTHORITY_UNAVAILABLE: a PDA authority whose account could not be read; a key needs no read', () => {
    const unread = facts({
      programData: account(BPF_UPGRADEABLE_LOADER, programDataBytes(DEPLOY_SLOT, pda)),
      authorityAccount: 'unavailable',
    });
    const result = assessProgram(unread);
    flags.raised(result, 'AUTHORITY_UNAVAILABLE', { upgrade_authority: pda });
    assert.ok(result.confidence < 1);
    flags.notRaised(assessProgram(facts({ authorityAccount: 'unavailable' })), 'AUTHORITY_UNAVAILABLE');
  });

  it('RECENTLY_UPGRADED: the last deploy slot landed under 7 days ago (medium under a day); not 7 days and a minute', async () => {
    const at = async (age: number) =>
      assessProgram(facts(history([await recorded('upgrade', age, DEPLOY_SLOT)])));
    const hours = flags.raised(await at(2 * HOUR), 'RECENTLY_UPGRADED', {
      last_deploy_slot: String(DEPLOY_SLOT),
      hours_since: 2,
      last_deploy_time: new Date((NOW - 2 * HOUR) * 1000).toISOString(),
    });
    const days = flags.raised(await at(7 * DAY - 60), 'RECENTLY_UPGRADED');
    assert.ok((hours.weight_applied as number) > (days.weight_applied as number));
    flags.notRaised(await at(7 * DAY + 60), 'RECENTLY_UPGRADED');
  });

  it('FREQUENT_UPGRADES: three upgrades in 30 days; not when the third is 31 days old', async () => {
    const upgrades = async (ages: readonly number[]) =>
      assessProgram(
        facts(
          history(
            await Promise.all(
              ages.map((age, i) => recorded('upgrade', age, DEPLOY_SLOT - BigInt(i + 1) * 1000n)),
            ),
          ),
        ),
      );
    const found = flags.raised(await upgrades([10 * DAY, 20 * DAY, 29 * DAY]), 'FREQUENT_UPGRADES', {
      upgrades_30d: 3,
    });
    assert.equal((found.signatures as string[]).length, 3);
    flags.notRaised(await upgrades([10 * DAY, 20 * DAY, 31 * DAY]), 'FREQUENT_UPGRADES');
  });

  it('AUTHORITY_CHANGED_RECENTLY: handed to a new key 10 days ago; not when given up (immutable), nor 31 days ago', async () => {
    const change = async (age: number, to: Address | null) =>
      assessProgram(facts(history([await recorded('set_authority', age, DEPLOY_SLOT + 10n, to)])));
    flags.raised(await change(10 * DAY, newKey), 'AUTHORITY_CHANGED_RECENTLY', { new_authority: newKey });
    flags.notRaised(await change(10 * DAY, null), 'AUTHORITY_CHANGED_RECENTLY');
    flags.notRaised(await change(31 * DAY, newKey), 'AUTHORITY_CHANGED_RECENTLY');
  });

  it('PROGRAM_NEW: first deployed 6 days ago with the whole history read; not 8 days ago', async () => {
    const deployed = async (age: number) =>
      assessProgram(facts(history([await recorded('deploy', age, DEPLOY_SLOT - 5n)])));
    flags.raised(await deployed(6 * DAY), 'PROGRAM_NEW', {
      deployed_at: new Date((NOW - 6 * DAY) * 1000).toISOString(),
    });
    flags.notRaised(await deployed(8 * DAY), 'PROGRAM_NEW');
  });

  it(`HISTORY_TRUNCATED: ${HISTORY_LIMIT} signatures (a full page); not ${HISTORY_LIMIT - 1} with every transaction read`, async () => {
    const tx = await recorded('upgrade', 100 * DAY, DEPLOY_SLOT);
    const page = (count: number) =>
      Array.from({ length: count }, (_, i) => ({
        signature: `s${i}`,
        slot: DEPLOY_SLOT - BigInt(i),
        blockTime: NOW - 100 * DAY - i,
        err: null,
      }));
    const full = assessProgram(facts({ signatures: page(HISTORY_LIMIT), transactions: Array(20).fill(tx) }));
    flags.raised(full, 'HISTORY_TRUNCATED', { signatures_read: 20 });
    assert.ok(full.confidence < 1);
    flags.notRaised(
      assessProgram(facts({ signatures: page(HISTORY_LIMIT - 1), transactions: Array(20).fill(tx) })),
      'HISTORY_TRUNCATED',
    );
    // PROGRAM_NEW is never claimed from a truncated history.
    const deploy = await recorded('deploy', 2 * DAY, DEPLOY_SLOT - 1n);
    flags.notRaised(
      assessProgram(facts({ signatures: page(HISTORY_LIMIT), transactions: [deploy] })),
      'PROGRAM_NEW',
    );
  });

  it('HISTORY_UNAVAILABLE: the history could not be read; confidence drops, the score does not', () => {
    const known = assessProgram(facts());
    const blind = assessProgram(facts({ signatures: null, historyError: 'injected: 429' }));
    flags.raised(blind, 'HISTORY_UNAVAILABLE', { reason: 'injected: 429' });
    assert.ok(blind.confidence < known.confidence);
    assert.ok(blind.risk_score >= known.risk_score);
    flags.notRaised(known, 'HISTORY_UNAVAILABLE');
  });

  it('immutable < 2-of-3 multisig < single key, and a recent upgrade raises a single key further', async () => {
    const immutable = assessProgram(
      facts({ programData: account(BPF_UPGRADEABLE_LOADER, programDataBytes(DEPLOY_SLOT, null)) }),
    );
    const multisig = assessProgram(
      facts({
        programData: account(BPF_UPGRADEABLE_LOADER, programDataBytes(DEPLOY_SLOT, pda)),
        authorityAccount: squads(2, null),
      }),
    );
    const single = assessProgram(facts());
    const upgraded = assessProgram(facts(history([await recorded('upgrade', HOUR, DEPLOY_SLOT)])));
    assert.ok(immutable.risk_score < multisig.risk_score);
    assert.ok(multisig.risk_score < single.risk_score);
    assert.ok(single.risk_score < upgraded.risk_score);
  });

  it('every program flag has a raising test above', () => {
    flags.assertEveryFlagRaised();
  });
});
