/**
 * Transactions to simulate (POST /simulate/tx), not sent: each is unsigned, as a dapp hands it
 * to a wallet, over accounts seeded here for real. A plain USDC transfer, and the three ways a
 * drainer takes a signer's tokens without moving them in the same transaction: an unlimited
 * approval, a token account's owner handed over, a wallet assigned to a program; plus a token
 * account closed with its rent sent to a third party.
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
import type { SandboxChain } from '../chain/chain.js';
import { unsignedWireTransaction } from '../unsigned.js';
import { fundUsdc, USDC_DECIMALS, USDC_MINT, usdcAccountOf } from '../usdc.js';
import { fundedSigner, LAMPORTS_PER_SOL, type ScenarioContext } from './context.js';
import type { SimulationScenario } from './manifest.js';
import { USDC_AUTHORITY_LABEL } from './tokens.js';

const U64_MAX = 0xffff_ffff_ffff_ffffn;
const USDC_HELD = 50_000_000n;

type Build = (victim: Address, attacker: Address, usdcAccount: Address) => Instruction[];

interface Drain {
  name: `sim:${string}`;
  description: string;
  flags: string[];
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

async function usdcTransfer(setup: SimulationSetup): Promise<SimulationScenario> {
  const sender = await setup.wallet('sim:usdc-transfer:sender', LAMPORTS_PER_SOL);
  const recipient = await setup.wallet('sim:usdc-transfer:recipient', 0n);
  const amount = 2_500_000n;
  await fundUsdc(setup.chain, setup.usdcAuthority, [
    { owner: sender, amount: 10_000_000n },
    { owner: recipient, amount: 0n },
  ]);
  const instruction = getTransferCheckedInstruction({
    source: await usdcAccountOf(sender),
    mint: USDC_MINT,
    destination: await usdcAccountOf(recipient),
    authority: sender,
    amount,
    decimals: USDC_DECIMALS,
  });
  return {
    name: 'sim:usdc-transfer',
    description: 'A plain, unsigned transfer of 2.5 of the sender’s 10 USDC',
    signer: sender,
    transaction: unsignedWireTransaction(sender, [instruction]),
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
  const built = [await usdcTransfer(setup)];
  for (const spec of DRAINS) built.push(await drain(setup, spec));
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
