/**
 * Program subjects, deployed and upgraded with REAL BPF Upgradeable Loader transactions (buffer writes,
 * DeployWithMaxDataLen, Upgrade, SetAuthority) of a tiny valid SBF program (LiteSVM's Memo v2 ELF):
 * an immutable program, a single-key program with recent upgrades, and a program whose upgrade authority
 * is a Squads v4 multisig. Also the stand-in bodies of pump.fun, PumpSwap and Squads at their real ids.
 */
import { type Address, getAddressEncoder, getProgramDerivedAddress, type KeyPairSigner } from '@solana/kit';
import { findProgramDataAddress } from '../../solana/decoders/upgradeable-loader.js';
import { MEMO_PROGRAM, PUMP_PROGRAM, PUMPSWAP_PROGRAM, SQUADS_V4_PROGRAM } from '../../solana/programs.js';
import type { Submitted } from '../wallets.js';
import { encodeSquadsMultisig, installStandInProgram, type SquadsMember } from './builders/layouts.js';
import { deployProgram, setUpgradeAuthority, upgradeProgram } from './builders/loader.js';
import { DAY } from './builders/timeline.js';
import { fundedSigner, type ScenarioContext } from './context.js';
import type { BuiltSubject } from './expectations.js';
import type { ProgramExpect } from './manifest.js';

/** The single-key program doubles as the transfer-hook program of token:t22-transfer-hook. */
export const HOOK_PROGRAM_LABEL = 'program:single-key:id';

/** LiteSVM ships Memo v2 as a BPF Loader 2 program: its account data is a small valid SBF ELF. */
export function programElf(context: Pick<ScenarioContext, 'chain'>): Uint8Array {
  const memo = context.chain.getAccount(MEMO_PROGRAM);
  if (!memo?.executable()) throw new Error('LiteSVM has no Memo v2 program to take an ELF from');
  return new Uint8Array(memo.data());
}

/** A copy of the ELF with a build tag in its trailing padding, so each upgrade really changes the code bytes. */
export function buildOf(elf: Uint8Array, build: number): Uint8Array {
  const out = new Uint8Array(elf.length + 8);
  out.set(elf);
  new DataView(out.buffer).setUint32(elf.length, build, true);
  return out;
}

function deployment(submitted: Submitted, kind: 'deploy' | 'upgrade'): ProgramExpect['deployments'][number] {
  return { signature: submitted.signature, slot: submitted.slot.toString(), kind };
}

interface Deployed {
  program: KeyPairSigner;
  programData: Address;
  authority: KeyPairSigner;
  deployments: ProgramExpect['deployments'];
}

async function deploy(context: ScenarioContext, label: string, build: number): Promise<Deployed> {
  const authority = await fundedSigner(context, `${label}:authority`);
  const program = await context.keys.signer(`${label}:id`);
  const buffer = await context.keys.signer(`${label}:buffer:${build}`);
  const result = await deployProgram(
    context.chain,
    authority,
    program,
    authority,
    buffer,
    buildOf(context.programElf, build),
  );
  return {
    program,
    programData: result.programData,
    authority,
    deployments: [deployment(result.deploy, 'deploy')],
  };
}

async function upgrade(
  context: ScenarioContext,
  label: string,
  deployed: Deployed,
  build: number,
): Promise<void> {
  const buffer = await context.keys.signer(`${label}:buffer:${build}`);
  const submitted = await upgradeProgram(
    context.chain,
    deployed.authority,
    deployed.program.address,
    deployed.authority,
    buffer,
    buildOf(context.programElf, build),
  );
  deployed.deployments.push(deployment(submitted, 'upgrade'));
}

function lastSlot(deployed: Deployed): string {
  const last = deployed.deployments.at(-1);
  if (!last) throw new Error('a deployed program has at least its deploy');
  return last.slot;
}

/** Squads v4 multisig PDA: ["multisig", "multisig", create_key] under the Squads program. */
async function squadsMultisigAddress(createKey: Address): Promise<{ address: Address; bump: number }> {
  const [address, bump] = await getProgramDerivedAddress({
    programAddress: SQUADS_V4_PROGRAM,
    seeds: ['multisig', 'multisig', getAddressEncoder().encode(createKey)],
  });
  return { address, bump };
}

/** Stand-in program accounts at the real ids of programs whose code the sandbox lacks. */
export async function seedStandInPrograms(context: ScenarioContext): Promise<BuiltSubject[]> {
  const standIns = [
    [PUMP_PROGRAM, 'pump', 'pump.fun bonding-curve program'],
    [PUMPSWAP_PROGRAM, 'pumpswap', 'PumpSwap AMM'],
    [SQUADS_V4_PROGRAM, 'squads-v4', 'Squads v4 multisig program'],
  ] as const;
  const built: BuiltSubject[] = [];
  for (const [programId, short, what] of standIns) {
    const installed = await installStandInProgram(context.chain, programId, context.programElf, null);
    built.push({
      name: `program:stand-in:${short}`,
      kind: 'program',
      address: programId,
      description: `${what} at its real id; the code is a stand-in (no upgrade authority), only the accounts it owns matter`,
      expect: {
        programData: installed.programData,
        upgradeAuthority: null,
        authorityKind: 'none',
        lastDeploySlot: installed.deploySlot.toString(),
        deployments: [],
        authorityChanges: [],
        executableLength: context.programElf.length,
        standIn: true,
      },
    });
  }
  return built;
}

/** Programs deployed but not yet listed: the single-key one still gets its latest upgrade. */
export interface ProgramsInProgress {
  immutable: Deployed;
  frozen: Submitted;
  singleKey: Deployed;
  governed: Deployed;
  handover: Submitted;
  multisig: { address: Address; members: SquadsMember[] };
}

/** Deploys, upgrades and authority changes from 20 days to 3 days before the end of the span. */
export async function seedPrograms(context: ScenarioContext): Promise<ProgramsInProgress> {
  const { chain, timeline } = context;

  const immutable = await deploy(context, 'program:immutable', 1);
  timeline.moveTo(19 * DAY);
  const frozen = await setUpgradeAuthority(
    chain,
    immutable.authority,
    immutable.program.address,
    immutable.authority,
    null,
  );

  timeline.moveTo(14 * DAY);
  const singleKey = await deploy(context, 'program:single-key', 1);

  timeline.moveTo(10 * DAY);
  const governed = await deploy(context, 'program:multisig', 1);
  timeline.moveTo(8 * DAY);
  await upgrade(context, 'program:multisig', governed, 2);

  // The team moves the upgrade authority to a 3-of-5 Squads v4 multisig (autonomous: no config authority).
  const createKey = (await context.keys.signer('program:multisig:squads-create-key')).address;
  const multisig = await squadsMultisigAddress(createKey);
  const members: SquadsMember[] = await Promise.all(
    [0, 1, 2, 3, 4].map(async (i) => ({
      key: (await context.keys.signer(`program:multisig:member:${i}`)).address,
      permissions: i === 4 ? 1 : 7, // the last member may only propose
    })),
  );
  const multisigData = encodeSquadsMultisig({
    createKey,
    configAuthority: null,
    threshold: 3,
    timeLockSeconds: 0,
    transactionIndex: 4n,
    staleTransactionIndex: 0n,
    rentCollector: null,
    bump: multisig.bump,
    members,
  });
  chain.setAccount({
    address: multisig.address,
    lamports: chain.minimumBalanceForRentExemption(multisigData.length),
    data: multisigData,
    owner: SQUADS_V4_PROGRAM,
  });
  timeline.moveTo(7 * DAY);
  const handover = await setUpgradeAuthority(
    chain,
    governed.authority,
    governed.program.address,
    governed.authority,
    multisig.address,
  );

  timeline.moveTo(3 * DAY);
  await upgrade(context, 'program:single-key', singleKey, 2);
  return {
    immutable,
    frozen,
    singleKey,
    governed,
    handover,
    multisig: { address: multisig.address, members },
  };
}

/** DeployWithMaxDataLen reserved 2× the ELF, as `solana program deploy` does; ProgramData keeps that room. */
const executableLength = (context: ScenarioContext) => 2 * (context.programElf.length + 8);

async function immutableSubject(
  context: ScenarioContext,
  programs: ProgramsInProgress,
): Promise<BuiltSubject> {
  const { immutable, frozen } = programs;
  return {
    name: 'program:immutable',
    kind: 'program',
    address: immutable.program.address,
    description:
      'Upgradeable-loader program whose upgrade authority was removed (SetAuthority to None): immutable',
    expect: {
      programData: await findProgramDataAddress(immutable.program.address),
      upgradeAuthority: null,
      authorityKind: 'none',
      lastDeploySlot: lastSlot(immutable),
      deployments: immutable.deployments,
      authorityChanges: [{ signature: frozen.signature, slot: frozen.slot.toString(), newAuthority: null }],
      executableLength: executableLength(context),
      standIn: false,
    },
  };
}

function singleKeySubject(context: ScenarioContext, { singleKey }: ProgramsInProgress): BuiltSubject {
  return {
    name: 'program:single-key',
    kind: 'program',
    address: singleKey.program.address,
    description:
      'Program upgradeable by one keypair, upgraded 3 days and 5.5 hours ago (also the hook of token:t22-transfer-hook)',
    expect: {
      programData: singleKey.programData,
      upgradeAuthority: singleKey.authority.address,
      authorityKind: 'single-key',
      lastDeploySlot: lastSlot(singleKey),
      deployments: singleKey.deployments,
      authorityChanges: [],
      executableLength: executableLength(context),
      standIn: false,
    },
  };
}

function multisigSubject(context: ScenarioContext, programs: ProgramsInProgress): BuiltSubject {
  const { governed, handover, multisig } = programs;
  const { members } = multisig;
  return {
    name: 'program:multisig',
    kind: 'program',
    address: governed.program.address,
    description:
      'Program whose upgrade authority is a Squads v4 multisig account (3 of 5, 4 voters, autonomous); the multisig account itself is the authority here (on mainnet it would be its vault PDA)',
    expect: {
      programData: governed.programData,
      upgradeAuthority: multisig.address,
      authorityKind: 'squads-v4-multisig',
      lastDeploySlot: lastSlot(governed),
      deployments: governed.deployments,
      authorityChanges: [
        { signature: handover.signature, slot: handover.slot.toString(), newAuthority: multisig.address },
      ],
      executableLength: executableLength(context),
      standIn: false,
      multisig: {
        address: multisig.address,
        threshold: 3,
        members: members.map((member) => member.key),
        voters: members.filter((member) => (member.permissions & 2) !== 0).length,
        timeLockSeconds: 0,
        configAuthority: null,
      },
    },
  };
}

/** The single-key program's latest upgrade (5.5 hours before the end); then the program subjects are listed. */
export async function seedLatestUpgrade(
  context: ScenarioContext,
  programs: ProgramsInProgress,
): Promise<BuiltSubject[]> {
  await upgrade(context, 'program:single-key', programs.singleKey, 3);
  return [
    await immutableSubject(context, programs),
    singleKeySubject(context, programs),
    multisigSubject(context, programs),
  ];
}
