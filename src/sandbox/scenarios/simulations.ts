/**
 * Transactions to simulate (POST /simulate/tx), not sent: each is unsigned, as a dapp hands it
 * to a wallet, over accounts seeded here for real. A plain USDC transfer, and the three ways a
 * drainer takes a signer's tokens without moving them in the same transaction: an unlimited
 * approval, a token account's owner handed over, a wallet assigned to a program; plus a token
 * account closed with its rent sent to a third party. The same transfer again as a v0 transaction
 * that loads the recipient's account and the mint from an address lookup table seeded here.
 */
import { type Address, createNoopSigner, type Instruction, type KeyPairSigner } from '@solana/kit';
import { getAssignInstruction } from '@solana-program/system';
import {
  AuthorityType,
  getApproveInstruction,
  getCloseAccountInstruction,
  getSetAuthorityInstruction,
  getTransferCheckedInstruction,
} from '@solana-program/token';
import type { SimulateFlag } from '../../scans/simulate/flags.js';
import { ADDRESS_LOOKUP_TABLE_PROGRAM } from '../chain/addresses.js';
import type { SandboxChain } from '../chain/chain.js';
import { unsignedWireTransaction } from '../unsigned.js';
import { fundUsdc, USDC_DECIMALS, USDC_MINT, usdcAccountOf } from '../usdc.js';
import { encodeLookupTable, LOOKUP_TABLE_META_SIZE, lookupTableAddress } from './builders/lookup-table.js';
import { fundedSigner, LAMPORTS_PER_SOL, type ScenarioContext } from './context.js';
import type { SimulationScenario } from './manifest.js';
import { USDC_AUTHORITY_LABEL } from './tokens.js';

const U64_MAX = 0xffff_ffff_ffff_ffffn;
const USDC_HELD = 50_000_000n;

type Build = (victim: Address, attacker: Address, usdcAccount: Address) => Instruction[];

interface Drain {
  name: `sim:${string}`;
  description: string;
  flags: SimulateFlag[];
  /** USDC the victim's account holds (0 for the close, which needs an empty account). */
  held: bigint;
  build: Build;
}

const DRAINS: readonly Drain[] = [
  {
    name: 'sim:approve-drain',
    description: 'An unlimited Approve of the signer’s USDC account to a third party',
    flags: ['TX_TOKEN_APPROVE_THIRD_PARTY'],
    held: USDC_HELD,
    build: (victim, attacker, usdc) => [
      getApproveInstruction({ source: usdc, delegate: attacker, owner: victim, amount: U64_MAX }),
    ],
  },
  {
    name: 'sim:owner-change',
    description: 'SetAuthority(AccountOwner) handing the signer’s USDC account to a third party',
    flags: ['TX_TOKEN_ACCOUNT_OWNER_CHANGED'],
    held: USDC_HELD,
    build: (victim, attacker, usdc) => [
      getSetAuthorityInstruction({
        owned: usdc,
        owner: victim,
        authorityType: AuthorityType.AccountOwner,
        newAuthority: attacker,
      }),
    ],
  },
  {
    name: 'sim:system-assign',
    description: 'System Assign of the signer’s wallet to a program the attacker controls',
    flags: ['TX_SYSTEM_ASSIGN'],
    held: USDC_HELD,
    build: (victim, attacker) => [
      // A signer only by position in the message: the transaction stays unsigned.
      getAssignInstruction({ account: createNoopSigner(victim), programAddress: attacker }),
    ],
  },
  {
    name: 'sim:close-to-third-party',
    description: 'CloseAccount of the signer’s empty USDC account with its rent sent to a third party',
    flags: ['TX_CLOSE_TO_THIRD_PARTY'],
    held: 0n,
    build: (victim, attacker, usdc) => [
      getCloseAccountInstruction({ account: usdc, destination: attacker, owner: victim }),
    ],
  },
];

/** Where the simulations are built: a chain with USDC, its mint authority, and wallets by label. */
export interface SimulationSetup {
  readonly chain: SandboxChain;
  readonly usdcAuthority: KeyPairSigner;
  /** The wallet for `label`, holding `lamports`. */
  wallet(label: string, lamports: bigint): Promise<Address>;
}

/** A lookup table of `authority`, created one slot ago and holding `addresses`, on `chain`. */
async function seedLookupTable(
  chain: SandboxChain,
  authority: Address,
  addresses: readonly Address[],
): Promise<Address> {
  const created = chain.slot - 1n;
  const table = await lookupTableAddress(authority, created);
  // Extended in the slot it was created: every address is usable from the next one on.
  const data = encodeLookupTable({
    authority,
    lastExtendedSlot: created,
    lastExtendedSlotStartIndex: 0,
    addresses,
  });
  chain.setAccount({
    address: table,
    lamports: chain.minimumBalanceForRentExemption(LOOKUP_TABLE_META_SIZE + 32 * addresses.length),
    data,
    owner: ADDRESS_LOOKUP_TABLE_PROGRAM,
  });
  return table;
}

interface Transfer {
  readonly name: `sim:${string}`;
  readonly description: string;
  /** v0 through a seeded lookup table holding the recipient's USDC account and the mint; else legacy. */
  readonly lookupTable: boolean;
}

const PLAIN_TRANSFER: Transfer = {
  name: 'sim:usdc-transfer',
  description: 'A plain, unsigned transfer of 2.5 of the sender’s 10 USDC',
  lookupTable: false,
};

const LOOKUP_TABLE_TRANSFER: Transfer = {
  name: 'sim:v0-lookup-table',
  description:
    'The same transfer as a v0 transaction: the recipient’s USDC account and the mint are loaded from an address lookup table',
  lookupTable: true,
};

async function usdcTransfer(setup: SimulationSetup, spec: Transfer): Promise<SimulationScenario> {
  const sender = await setup.wallet(`${spec.name}:sender`, LAMPORTS_PER_SOL);
  const recipient = await setup.wallet(`${spec.name}:recipient`, 0n);
  const amount = 2_500_000n;
  await fundUsdc(setup.chain, setup.usdcAuthority, [
    { owner: sender, amount: 10_000_000n },
    { owner: recipient, amount: 0n },
  ]);
  const destination = await usdcAccountOf(recipient);
  const instruction = getTransferCheckedInstruction({
    source: await usdcAccountOf(sender),
    mint: USDC_MINT,
    destination,
    authority: sender,
    amount,
    decimals: USDC_DECIMALS,
  });
  let options: Parameters<typeof unsignedWireTransaction>[2] = {};
  if (spec.lookupTable) {
    const addresses = [destination, USDC_MINT];
    const authority = await setup.wallet(`${spec.name}:table-authority`, 0n);
    const table = await seedLookupTable(setup.chain, authority, addresses);
    options = { version: 0, lookupTables: { [table]: addresses } };
  }
  return {
    name: spec.name,
    description: spec.description,
    signer: sender,
    transaction: unsignedWireTransaction(sender, [instruction], options),
    expect: {
      flags: [],
      tokenChanges: [
        { owner: sender, mint: USDC_MINT, change: String(-amount) },
        { owner: recipient, mint: USDC_MINT, change: String(amount) },
      ],
    },
  };
}

async function drain(setup: SimulationSetup, spec: Drain): Promise<SimulationScenario> {
  const victim = await setup.wallet(`${spec.name}:victim`, 2n * LAMPORTS_PER_SOL);
  const attacker = await setup.wallet(`${spec.name}:attacker`, 0n);
  await fundUsdc(setup.chain, setup.usdcAuthority, [{ owner: victim, amount: spec.held }]);
  const usdc = await usdcAccountOf(victim);
  return {
    name: spec.name,
    description: spec.description,
    signer: victim,
    transaction: unsignedWireTransaction(victim, spec.build(victim, attacker, usdc)),
    expect: { flags: spec.flags, attacker },
  };
}

/** Sets up the accounts of every simulation scenario on `setup.chain` and returns them. */
export async function buildSimulations(setup: SimulationSetup): Promise<SimulationScenario[]> {
  const built = [await usdcTransfer(setup, PLAIN_TRANSFER)];
  for (const spec of DRAINS) built.push(await drain(setup, spec));
  built.push(await usdcTransfer(setup, LOOKUP_TABLE_TRANSFER));
  return built;
}

export async function seedSimulations(context: ScenarioContext): Promise<void> {
  const setup: SimulationSetup = {
    chain: context.chain,
    usdcAuthority: await context.keys.signer(USDC_AUTHORITY_LABEL),
    wallet: async (label, lamports) =>
      lamports > 0n
        ? (await fundedSigner(context, label, lamports)).address
        : (await context.keys.signer(label)).address,
  };
  context.simulations.push(...(await buildSimulations(setup)));
}
