/**
 * The machine-readable list of everything seeding put on the chain. Each subject names the address (or
 * signature) a scanner is pointed at and the on-chain facts it was built to have, so tests, docs and the
 * sandbox banner all read one source. Plain JSON: u64 values are decimal strings, keys base58.
 */

export type ScenarioKind = 'token' | 'pumpfun' | 'wallet' | 'tx' | 'program';

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
  permanentDelegate?: string;
  transferFee?: TransferFeeExpect;
  transferHook?: { authority: string; programId: string };
  defaultAccountState?: 'initialized' | 'frozen';
  /** Holder accounts left frozen (with no balance). */
  frozenTokenAccounts?: string[];
  nonTransferable?: boolean;
  pausable?: { authority: string; paused: boolean };
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
  authorityKind: 'none' | 'single-key' | 'squads-v4-multisig' | 'unknown';
  /** Slot of the last deploy or upgrade (ProgramData header). */
  lastDeploySlot: string;
  /** Deploy and upgrade transactions, oldest first (empty for programs written from dumps). */
  deployments: { signature: string; slot: string; kind: 'deploy' | 'upgrade' }[];
  authorityChanges: { signature: string; slot: string; newAuthority: string | null }[];
  /** Bytes after the ProgramData header: the reserved program space (2× the ELF for real deploys). */
  executableLength: number;
  /** True for a program at its real address whose code is a stand-in (the account shape is exact). */
  standIn: boolean;
  multisig?: {
    address: string;
    threshold: number;
    members: string[];
    voters: number;
    timeLockSeconds: number;
    configAuthority: string | null;
  };
}

interface SubjectBase<K extends ScenarioKind, E> {
  name: string;
  kind: K;
  description: string;
  expect: E;
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
  expect: { owner: string; dataLength: number; file: string; facts: Record<string, unknown> };
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
