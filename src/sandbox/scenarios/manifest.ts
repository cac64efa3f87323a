/**
 * The machine-readable list of everything seeding put on the chain. Each subject names the address (or
 * signature) a scanner is pointed at and the on-chain facts it was built to have, so tests, docs and the
 * sandbox banner all read one source. Plain JSON: u64 values are decimal strings, keys base58.
 */

import type { SubjectKind } from '../../catalog.js';

/** A scenario's subject is what one GET scan is about. */
export type ScenarioKind = SubjectKind;

export interface HolderExpect {
  owner: string;
  tokenAccount: string;
  amount: string;
}

export interface TransferFeeExpect {
  configAuthority: string | null;
  withdrawWithheldAuthority: string | null;
  olderBasisPoints: number;
  olderEpoch: string;
  newerBasisPoints: number;
  newerEpoch: string;
  maximumFee: string;
}

export interface MetaplexExpect {
  address: string;
  updateAuthority: string;
  name: string;
  symbol: string;
  isMutable: boolean;
}

export interface TokenExpect {
  program: 'spl-token' | 'token-2022';
  decimals: number;
  supply: string;
  mintAuthority: string | null;
  freezeAuthority: string | null;
  /** Token-2022 TLV entries by name, in account order; empty for SPL Token. */
  extensions: string[];
  /** Every holder account, largest first. */
  holders: HolderExpect[];
  /** Largest holder's share of supply in basis points. */
  topHolderShareBps: number;
  metaplex?: MetaplexExpect;
  /** Token-2022's own metadata extension (the mint is its own metadata account). */
  tokenMetadata?: { name: string; symbol: string; updateAuthority: string | null };
  permanentDelegate?: string;
  transferFee?: TransferFeeExpect;
  transferHook?: { authority: string; programId: string };
  defaultAccountState?: 'initialized' | 'frozen';
  /** Holder accounts left frozen (with no balance). */
  frozenTokenAccounts?: string[];
  nonTransferable?: boolean;
  pausable?: { authority: string; paused: boolean };
  /** What a simulated transfer from a real holder raises (token/transfer-simulation), when it runs. */
  transferSimulation?: { raises: string[]; failingProgram?: string };
  /**
   * The governing account behind the mint and freeze authority: `verified` when its bytes derive
   * that authority (the scan then names it), false for a forged one (the generic warning stands).
   */
  governor?: { kind: string; address: string; authority: string; verified: boolean };
  /** The pool seeded for it (liquidity subjects). */
  market?: MarketExpect;
}

export interface MarketExpect {
  dex: 'raydium-cpmm' | 'raydium-amm-v4' | 'orca-whirlpool' | 'meteora-damm-v2' | 'meteora-damm-v1';
  pool: string;
  baseVault: string;
  quoteVault: string;
  quoteMint: string;
  quoteReserve: string;
  baseReserve: string;
  lpMint?: string;
  /** LP units the pool counts as issued, and the LP mint's supply (the difference was burned). */
  poolLpSupply?: string;
  lpMintSupply?: string;
  lpHolders?: HolderExpect[];
  /** The locker holding the LP (LP_BURNED_OR_LOCKED names it in `lockers`): its escrow and first release. */
  lpLocker?: { name: string; program: string; escrow: string; unlocksAt: string };
  sqrtPriceX64?: string;
}

export interface PumpPoolExpect {
  address: string;
  /** pump's pool-authority PDA of the mint: creator of the canonical pool. */
  creator: string;
  coinCreator: string;
  baseMint: string;
  quoteMint: string;
  lpMint: string;
  poolBaseTokenAccount: string;
  poolQuoteTokenAccount: string;
  lpSupply: string;
  baseReserve: string;
  quoteReserveLamports: string;
}

export interface PumpfunExpect {
  bondingCurve: string;
  associatedBondingCurve: string;
  creator: string;
  complete: boolean;
  curveDataLength: number;
  virtualTokenReserves: string;
  virtualQuoteReserves: string;
  realTokenReserves: string;
  realQuoteReserves: string;
  tokenTotalSupply: string;
  /** Tokens in the curve's associated token account (unsold + migration reserve). */
  curveTokenBalance: string;
  supply: string;
  decimals: number;
  mintAuthority: string | null;
  freezeAuthority: string | null;
  /** Sold fraction of the 793.1M sellable tokens, in basis points. */
  progressBps: number;
  metaplex?: MetaplexExpect;
  pool?: PumpPoolExpect;
  /** Tokens in the creator's associated token account: its dev buy, kept. */
  creatorTokens?: string;
  /** Every coin the creator launched, this one included (seeded serial creators only). */
  creatorLaunches?: PumpLaunchesExpect;
  /** The launch's first slots (the launch-forensics subjects). */
  launch?: LaunchExpect;
  /** What ties the coin to the other coins of the related-launches cluster (related-launches.ts). */
  related?: RelatedExpect;
}

/** The related-launches cluster: coins of one serial creator, and coins the same sniper ring bought. */
export interface RelatedExpect {
  /** Every coin of this coin's creator in the cluster, oldest first (this one included). */
  creatorMints: string[];
  /** The ring's wallets that bought this coin in its creation slot and still hold (none: not sniped). */
  snipers: string[];
  /** The wallets that funded those snipers (each funded several, before any bought). */
  sniperFunders: string[];
}

export interface LaunchExpect {
  creationSlot: string;
  /** Wallets other than the creator that bought in the creation slot. */
  creationSlotBuyers: string[];
  /** Launch buyers whose buy the creator paid for, with SOL it sent them in the same transaction. */
  creatorFunded: string[];
}

export interface PumpLaunchesExpect {
  curves: string[];
  mints: string[];
  complete: number;
  incomplete: number;
}

export interface WalletExpect {
  /** Landed transactions naming the wallet (successful + failed), as getSignaturesForAddress counts them. */
  signatureCount: number;
  failedCount: number;
  firstBlockTime: number;
  lastBlockTime: number;
  lamports: string;
  /** Who sent the wallet its first SOL. */
  fundedBy?: string;
  /** Largest single SOL outflow signed by the wallet, and how soon after funding it left. */
  drain?: { signature: string; lamports: string; secondsAfterFunding: number; destination: string };
  /** pump.fun coins whose bonding curve names this wallet as creator. */
  pumpLaunches?: PumpLaunchesExpect;
}

export interface TxExpect {
  signer: string;
  slot: string;
  /** The transaction error as getTransaction reports it, null for success. */
  err: unknown;
  fee: string;
  /** ComputeBudget SetComputeUnitPrice (micro-lamports per CU), 0 when absent. */
  computeUnitPrice: string;
  computeUnitLimit: string | null;
  priorityFeeLamports: string;
  signerPreLamports: string;
  signerPostLamports: string;
  /** Programs invoked at top level, in order. */
  programs: string[];
  approve?: { tokenAccount: string; delegate: string; amount: string };
  setAuthority?: { tokenAccount: string; authorityType: 'AccountOwner'; newAuthority: string };
  customErrorCode?: number;
}

export interface ProgramExpect {
  programData: string;
  upgradeAuthority: string | null;
  authorityKind:
    | 'none'
    | 'single-key'
    | 'squads-v4-multisig'
    | 'squads-v3-multisig'
    | 'coral-multisig'
    | 'spl-governance'
    | 'unknown';
  /** Slot of the last deploy or upgrade (ProgramData header). */
  lastDeploySlot: string;
  /** Deploy and upgrade transactions, oldest first (empty for programs written from dumps). */
  deployments: { signature: string; slot: string; kind: 'deploy' | 'upgrade' }[];
  authorityChanges: { signature: string; slot: string; newAuthority: string | null }[];
  /** Bytes after the ProgramData header: the reserved program space (2× the ELF for real deploys). */
  executableLength: number;
  /** True for a program at its real address whose code is a stand-in (the account shape is exact). */
  standIn: boolean;
  /** The real governing account (multisig or governance) behind the authority, for governed stand-ins. */
  governor?: string;
  multisig?: {
    address: string;
    threshold: number;
    members: string[];
    voters: number;
    timeLockSeconds: number;
    configAuthority: string | null;
  };
}

/**
 * What a scan of the subject must answer: every seeded subject carries these in its `expect`, so an
 * integrator can check their reading of our results against what each subject was built to show. The
 * scan is the one its `kind` names (`token` → /scan/token, `tx` → /verify/tx, …), and the codes are
 * that endpoint's (docs/risk-model.md, src/scans/<kind>/flags.ts). test/e2e/scenarios-paid.test.ts
 * scans every subject and holds it to its entry.
 */
export interface FlagExpect {
  /** Codes the scan must raise. */
  flags: string[];
  /** Codes the scan must not raise. */
  notFlags: string[];
  /** True when `flags` is the whole answer: the scan raises exactly these and nothing else. Absent means false. */
  onlyFlags?: boolean;
}

/** Who can act on a subject: an authority or creator whose key the sandbox hands out. */
export interface ScenarioActor {
  role: 'mint-authority' | 'freeze-authority' | 'upgrade-authority' | 'creator' | 'lp-holder';
  address: string;
  /** Its 32-byte private key, base58: sandbox-only, like the USDC mint authority's. */
  privateKey: string;
  /** The keypair file (solana CLI format) `risk-scan sandbox` wrote for it; absent in a seeded chain. */
  keypair?: string;
}

/**
 * A real transaction the actor can send through the sandbox RPC that changes the subject's
 * verdict: the scan before it, after it, and exactly which flags the change adds and removes.
 */
export interface ScenarioAction {
  name: 'mint' | 'freeze' | 'upgrade' | 'sell-dev-buy' | 'burn-lp' | 'withdraw-lp';
  description: string;
  actor: ScenarioActor;
  before: FlagExpect;
  after: FlagExpect;
  change: { flagsAdded: string[]; flagsRemoved: string[] };
}

interface SubjectBase<K extends ScenarioKind, E> {
  name: string;
  kind: K;
  description: string;
  expect: E & FlagExpect;
  /** Transactions that change its verdict (the watch scenarios). */
  actions?: ScenarioAction[];
}

export type ScenarioSubject =
  | (SubjectBase<'token', TokenExpect> & { address: string })
  | (SubjectBase<'pumpfun', PumpfunExpect> & { address: string })
  | (SubjectBase<'wallet', WalletExpect> & { address: string })
  | (SubjectBase<'tx', TxExpect> & { signature: string })
  | (SubjectBase<'program', ProgramExpect> & { address: string })
  | MainnetSubject;

/** A real mainnet account loaded from a dump; `expect` is what its bytes decode to. */
export interface MainnetSubject {
  name: `mainnet:${string}`;
  kind: 'token' | 'pumpfun' | 'program';
  address: string;
  description: string;
  expect: { owner: string; dataLength: number; file: string; facts: Record<string, unknown> } & FlagExpect;
}

/** A transaction to simulate (POST /simulate/tx): unsigned, never sent, over seeded accounts. */
export interface SimulationScenario {
  name: `sim:${string}`;
  description: string;
  /** The fee payer and only signer. */
  signer: string;
  /** Base64 wire transaction, the body's `transaction`. */
  transaction: string;
  expect: {
    /** Exactly the flags the simulation raises. */
    flags: string[];
    /** Token balance changes by owner, exactly. */
    tokenChanges?: { owner: string; mint: string; change: string }[];
    /** Who the drain favours. */
    attacker?: string;
  };
}

export interface ScenarioManifest {
  format: 'solana-risk-scan/scenarios@1';
  seed: string;
  /** Seconds of history the scenarios span, ending at the slot the chain had when seeding finished. */
  spanSeconds: number;
  startSlot: string;
  endSlot: string;
  usdc: {
    mint: string;
    decimals: number;
    mintAuthority: string;
    /** The sandbox mint authority's 32-byte private key, base58: sandbox-only, so tests can mint test USDC. */
    mintAuthorityPrivateKey: string;
  };
  subjects: ScenarioSubject[];
  /** Transactions for POST /simulate/tx (not subjects: nothing on chain is named by them). */
  simulations: SimulationScenario[];
}

export type SubjectByKind<K extends ScenarioKind> = Extract<ScenarioSubject, { kind: K }>;

/** The simulation called `name`; throws when the manifest has none. */
export function simulation(manifest: ScenarioManifest, name: string): SimulationScenario {
  const found = manifest.simulations.find((s) => s.name === name);
  if (!found) throw new Error(`manifest has no simulation ${name}`);
  return found;
}

/** The action called `name` on the subject called `subjectName`; throws when there is none. */
export function action(manifest: ScenarioManifest, subjectName: string, name: string): ScenarioAction {
  const found = manifest.subjects.find((s) => s.name === subjectName);
  const entry = found && 'actions' in found ? found.actions?.find((a) => a.name === name) : undefined;
  if (!entry) throw new Error(`manifest has no action ${name} on ${subjectName}`);
  return entry;
}

/** The subject called `name`, checked to be of `kind`; throws when the manifest has no such subject. */
export function subject<K extends ScenarioKind>(
  manifest: ScenarioManifest,
  kind: K,
  name: string,
): Exclude<SubjectByKind<K>, MainnetSubject> {
  const found = manifest.subjects.find((candidate) => candidate.name === name);
  if (!found || found.kind !== kind || found.name.startsWith('mainnet:')) {
    throw new Error(`manifest has no ${kind} subject ${name}`);
  }
  return found as Exclude<SubjectByKind<K>, MainnetSubject>;
}
