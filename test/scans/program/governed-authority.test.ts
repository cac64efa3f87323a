/**
 * Upgrade authorities held by a Squads v3 multisig, a Coral multisig or an SPL Governance DAO:
 * recognised on the real mainnet governing accounts the seeded sandbox loads (Marinade's Coral
 * multisig, Jupiter's Squads v3 multisig, Pyth's program governance), found through the ProgramData
 * history on constructed ones, and never on an account whose own bytes do not derive the authority.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  AccountRole,
  type Address,
  createDefaultRpcTransport,
  createSolanaRpcFromTransport,
  generateKeyPairSigner,
  getAddressEncoder,
  getProgramDerivedAddress,
  type KeyPairSigner,
} from '@solana/kit';
import { createSandboxChain, type SandboxChain } from '../../../src/sandbox/chain/chain.js';
import { applyAccountDump } from '../../../src/sandbox/chain/dumps.js';
import { type SandboxRpc, startSandboxRpc } from '../../../src/sandbox/rpc/server.js';
import {
  encodeCoralMultisig,
  encodeSquadsV3Multisig,
  installStandInProgram,
} from '../../../src/sandbox/scenarios/builders/layouts.js';
import { subject } from '../../../src/sandbox/scenarios/index.js';
import { programElf } from '../../../src/sandbox/scenarios/programs.js';
import { submitFailing } from '../../../src/sandbox/wallets.js';
import { scanProgram } from '../../../src/scans/program/index.js';
import { coralSignerAddress } from '../../../src/solana/decoders/coral-multisig.js';
import {
  decodeGovernance,
  findNativeTreasuryAddress,
  governanceAddressOf,
} from '../../../src/solana/decoders/spl-governance.js';
import { findSquadsV3AuthorityAddress } from '../../../src/solana/decoders/squads-v3.js';
import {
  CORAL_MULTISIG_PROGRAM,
  SPL_GOVERNANCE_PROGRAM,
  SQUADS_V3_PROGRAM,
} from '../../../src/solana/programs.js';
import { countingTransport } from '../../helpers/rpc-transports.js';
import { seededChain } from '../../helpers/seeded-chain.js';
import { expectDecoded, loadAccount } from '../../solana/fixtures.js';

const MARINADE = 'MarBmsSgKXdrN1egZf5sqe1TMai9K1rChYNDJgjq7aD' as Address;
const MARINADE_MULTISIG = 'magrsHFQxkkioAy45VWnZnFBBdKVdy2ZiRoRGYT9Wed';
const MARINADE_SIGNER = '551FBXSXdhcRDDkdcb3ThDRg84Mwe5Zs6YjJ1EEoyzBp';

const scanWith = async (url: string, id: Address) => {
  const counter = countingTransport(createDefaultRpcTransport({ url }));
  const { result } = await scanProgram(id, {
    rpc: createSolanaRpcFromTransport(counter.transport),
    now: Date.now,
  });
  return { result, roundTrips: counter.roundTrips(), evidence: result.evidence as any };
};

describe('real mainnet governing accounts on the seeded sandbox', () => {
  let chain: SandboxChain;
  let server: SandboxRpc;
  let manifest: Awaited<ReturnType<typeof seededChain>>['manifest'];
  before(async () => {
    ({ chain, manifest } = await seededChain({ autoAdvance: false }));
    server = await startSandboxRpc({ chain, host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    chain.stop();
    await server.close();
  });

  it('Marinade: its authority is the signer of a 6-of-13 Coral multisig, not an unknown PDA (one extra round trip)', async () => {
    const { result, roundTrips, evidence } = await scanWith(server.url, MARINADE);
    assert.ok(result.flags.includes('UPGRADE_AUTHORITY_MULTISIG'), String(result.flags));
    assert.ok(!result.flags.includes('UPGRADE_AUTHORITY_UNKNOWN_PDA'));
    const flag = evidence.flags.UPGRADE_AUTHORITY_MULTISIG;
    assert.equal(flag.kind, 'coral-multisig');
    assert.equal(flag.multisig, MARINADE_MULTISIG);
    assert.equal(flag.signer, MARINADE_SIGNER);
    assert.equal(flag.nonce, 253);
    assert.equal(flag.threshold, 6);
    assert.equal(flag.voters, 13);
    assert.equal(flag.members.length, 13);
    assert.equal(flag.time_lock_seconds, 0);
    assert.equal(roundTrips, 3, 'the third round trip reads the multisig');
    assert.match(result.reasoning.join('\n'), /Coral multisig needs 6 of 13 owners/);
  });

  it('Jupiter v6 (stand-in code): authority 1 of its real 4-of-7 Squads v3 multisig', async () => {
    const s = subject(manifest, 'program', 'program:governed:squads-v3');
    const { result, roundTrips, evidence } = await scanWith(server.url, s.address as Address);
    assert.ok(result.flags.includes('UPGRADE_AUTHORITY_MULTISIG'), String(result.flags));
    const flag = evidence.flags.UPGRADE_AUTHORITY_MULTISIG;
    assert.equal(flag.kind, 'squads-v3');
    assert.equal(flag.multisig, s.expect.governor);
    assert.equal(flag.vault, s.expect.upgradeAuthority);
    assert.equal(flag.vault_index, 1);
    assert.equal(flag.threshold, 4);
    assert.equal(flag.voters, 7);
    assert.equal(roundTrips, 3);
  });

  it("Pyth staking (stand-in code): its real ProgramGovernance, 67% community yes votes over 7 days, in 'Pyth Governance'", async () => {
    const s = subject(manifest, 'program', 'program:governed:realms');
    const { result, roundTrips, evidence } = await scanWith(server.url, s.address as Address);
    assert.ok(result.flags.includes('UPGRADE_AUTHORITY_GOVERNANCE'), String(result.flags));
    assert.ok(!result.flags.includes('UPGRADE_AUTHORITY_UNKNOWN_PDA'));
    const flag = evidence.flags.UPGRADE_AUTHORITY_GOVERNANCE;
    assert.equal(flag.governance, s.expect.governor);
    assert.equal(flag.via, 'governance');
    assert.equal(flag.realm, '4ct8XU5tKbMNRphWy4rePsS9kBqPhDdvZoGpmprPaug4');
    assert.equal(flag.realm_name, 'Pyth Governance');
    assert.deepEqual(flag.community_vote_threshold, { type: 'yes-vote-percentage', percent: 67 });
    assert.deepEqual(flag.council_vote_threshold, { type: 'disabled' });
    assert.equal(flag.voting_time_seconds, 604_800);
    assert.equal(flag.hold_up_seconds, 0);
    assert.equal(
      roundTrips,
      3,
      'the governance is the authority (read in round 2); the third reads the realm',
    );
    assert.ok(result.risk_score < 0.2, `risk ${result.risk_score}`);
  });
});

describe('governing accounts found through the history, and forged ones', () => {
  let chain: SandboxChain;
  let server: SandboxRpc;
  let payer: KeyPairSigner;
  let elf: Uint8Array;
  const newKey = async () => (await generateKeyPairSigner()).address;

  /** A program whose upgrade authority is `authority`, with an instruction of `program` naming `accounts` in its history. */
  const governedBy = async (
    authority: Address,
    program: Address | null,
    accounts: readonly Address[] = [],
  ) => {
    const programId = await newKey();
    const { programData } = await installStandInProgram(chain, programId, elf, authority);
    if (program !== null) {
      // The stand-in body rejects it: the failed transaction still records which accounts it named.
      await submitFailing(chain, payer, [
        {
          programAddress: program,
          accounts: [...accounts, programData].map((address) => ({ address, role: AccountRole.WRITABLE })),
          data: new Uint8Array(8),
        },
      ]);
    }
    return programId;
  };
  const put = (address: Address, owner: Address, data: Uint8Array) =>
    chain.setAccount({ address, owner, data, lamports: chain.minimumBalanceForRentExemption(data.length) });
  const scan = (id: Address) => scanWith(server.url, id);

  before(async () => {
    chain = await createSandboxChain({ autoAdvance: false });
    server = await startSandboxRpc({ chain, host: '127.0.0.1', port: 0 });
    elf = programElf({ chain });
    payer = await generateKeyPairSigner();
    chain.setAccount({ address: payer.address, lamports: 10_000_000_000n });
    for (const program of [CORAL_MULTISIG_PROGRAM, SQUADS_V3_PROGRAM, SPL_GOVERNANCE_PROGRAM]) {
      await installStandInProgram(chain, program, elf, null);
    }
  });
  after(async () => {
    chain.stop();
    await server.close();
  });

  it('a Coral multisig with a non-canonical nonce, named by a Coral instruction in the history', async () => {
    const multisig = await newKey();
    const [, canonical] = await getProgramDerivedAddress({
      programAddress: CORAL_MULTISIG_PROGRAM,
      seeds: [getAddressEncoder().encode(multisig)],
    });
    let nonce = canonical - 1;
    while (coralSignerAddress(multisig, nonce) === null) nonce -= 1;
    const signer = coralSignerAddress(multisig, nonce)!;
    const owners = await Promise.all([1, 2, 3].map(newKey));
    put(
      multisig,
      CORAL_MULTISIG_PROGRAM,
      encodeCoralMultisig({ owners, threshold: 2n, nonce, ownerSetSeqno: 0 }),
    );
    const { result, roundTrips, evidence } = await scan(
      await governedBy(signer, CORAL_MULTISIG_PROGRAM, [multisig, signer]),
    );
    assert.ok(result.flags.includes('UPGRADE_AUTHORITY_MULTISIG'), String(result.flags));
    assert.equal(evidence.flags.UPGRADE_AUTHORITY_MULTISIG.nonce, nonce);
    assert.equal(evidence.flags.UPGRADE_AUTHORITY_MULTISIG.threshold, 2);
    assert.equal(roundTrips, 3);
  });

  it("a Squads v3 multisig's authority 2, named by a Squads v3 instruction in the history", async () => {
    const multisig = await newKey();
    const keys = await Promise.all([1, 2, 3, 4, 5].map(newKey));
    put(
      multisig,
      SQUADS_V3_PROGRAM,
      encodeSquadsV3Multisig({ threshold: 3, authorityIndex: 2, createKey: await newKey(), keys }),
    );
    const vault = await findSquadsV3AuthorityAddress(multisig, 2);
    const { result, evidence } = await scan(await governedBy(vault, SQUADS_V3_PROGRAM, [multisig]));
    const flag = evidence.flags.UPGRADE_AUTHORITY_MULTISIG;
    assert.ok(flag, String(result.flags));
    assert.deepEqual([flag.kind, flag.vault_index, flag.threshold, flag.voters], ['squads-v3', 2, 3, 5]);
  });

  it("an SPL Governance's native treasury, named by an execute in the history: the governance, then its realm (four round trips)", async () => {
    const bytes = loadAccount('pyth-staking-program-governance.json').data;
    const governance = await governanceAddressOf(
      expectDecoded(decodeGovernance(bytes)),
      SPL_GOVERNANCE_PROGRAM,
    );
    put(governance, SPL_GOVERNANCE_PROGRAM, bytes);
    const realm = loadAccount('pyth-governance-realm.json');
    put(realm.address as Address, SPL_GOVERNANCE_PROGRAM, realm.data);
    const treasury = await findNativeTreasuryAddress(governance, SPL_GOVERNANCE_PROGRAM);
    const { result, roundTrips, evidence } = await scan(
      await governedBy(treasury, SPL_GOVERNANCE_PROGRAM, [governance]),
    );
    const flag = evidence.flags.UPGRADE_AUTHORITY_GOVERNANCE;
    assert.ok(flag, String(result.flags));
    assert.equal(flag.via, 'native_treasury');
    assert.equal(flag.native_treasury, treasury);
    assert.equal(flag.governance, governance);
    assert.equal(flag.realm_name, 'Pyth Governance');
    assert.equal(roundTrips, 4);
  });

  it('Marinade with a look-alike multisig owned by another program at magrsH…: still an unknown PDA', async () => {
    applyAccountDump(chain, loadAccount('marinade-programdata.json'));
    applyAccountDump(chain, loadAccount('marinade-program.json'));
    const real = loadAccount('marinade-coral-multisig.json');
    put(real.address as Address, SQUADS_V3_PROGRAM, real.data);
    const { result } = await scan(MARINADE);
    assert.ok(result.flags.includes('UPGRADE_AUTHORITY_UNKNOWN_PDA'), String(result.flags));
    assert.ok(!result.flags.includes('UPGRADE_AUTHORITY_MULTISIG'));
    put(real.address as Address, CORAL_MULTISIG_PROGRAM, real.data);
    assert.ok((await scan(MARINADE)).result.flags.includes('UPGRADE_AUTHORITY_MULTISIG'), 'the real owner');
  });

  it('a real Coral multisig named next to an authority it does not derive proves nothing: unknown PDA', async () => {
    const copy = await newKey();
    put(copy, CORAL_MULTISIG_PROGRAM, loadAccount('marinade-coral-multisig.json').data);
    const [stranger] = await getProgramDerivedAddress({
      programAddress: CORAL_MULTISIG_PROGRAM,
      seeds: ['elsewhere'],
    });
    const { result } = await scan(await governedBy(stranger, CORAL_MULTISIG_PROGRAM, [copy, stranger]));
    assert.ok(result.flags.includes('UPGRADE_AUTHORITY_UNKNOWN_PDA'), String(result.flags));
    assert.ok(!result.flags.includes('UPGRADE_AUTHORITY_MULTISIG'));
  });

  it('governance bytes at an address they do not derive, or owned by an unknown program: unknown PDA', async () => {
    const bytes = loadAccount('pyth-staking-program-governance.json').data;
    const [moved] = await getProgramDerivedAddress({
      programAddress: SPL_GOVERNANCE_PROGRAM,
      seeds: ['moved'],
    });
    put(moved, SPL_GOVERNANCE_PROGRAM, bytes);
    const misplaced = await scan(await governedBy(moved, null));
    assert.ok(
      misplaced.result.flags.includes('UPGRADE_AUTHORITY_UNKNOWN_PDA'),
      String(misplaced.result.flags),
    );
    const unknownOwner = await newKey();
    const [elsewhere] = await getProgramDerivedAddress({ programAddress: unknownOwner, seeds: ['x'] });
    put(elsewhere, unknownOwner, bytes);
    const foreign = await scan(await governedBy(elsewhere, null));
    assert.ok(foreign.result.flags.includes('UPGRADE_AUTHORITY_UNKNOWN_PDA'));
    assert.equal(foreign.roundTrips, 2, 'an unrecognised PDA costs no extra round trip');
  });

  it('a PDA authority with no account and no governing instruction in its history: unknown, two round trips', async () => {
    const [pda] = await getProgramDerivedAddress({ programAddress: SQUADS_V3_PROGRAM, seeds: ['nobody'] });
    const { result, roundTrips } = await scan(await governedBy(pda, null));
    assert.ok(result.flags.includes('UPGRADE_AUTHORITY_UNKNOWN_PDA'));
    assert.equal(roundTrips, 2);
  });
});
