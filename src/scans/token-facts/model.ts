/**
 * The token pipeline's shared shapes: what the rounds read (raw accounts, the mint's history, the
 * holders), what the work beside them finds (governors, launch, simulated transfer), and the
 * decoded view every consumer takes. Types only: every file of the token and pump.fun scans and of
 * liquidity imports from here, and this file imports nothing of theirs, so no import runs in a circle.
 */
import type { Address } from '@solana/kit';
import type { DecodedMetadata } from '../../solana/decoders/metaplex-metadata.js';
import type { DecodedMint } from '../../solana/decoders/mint.js';
import type { GovernorLead, OwnedAccount } from '../../solana/governance/governors.js';

export interface RawAccount {
  readonly address: Address;
  readonly owner: Address;
  readonly lamports: bigint;
  readonly data: Uint8Array;
}

export interface LargestAccount {
  readonly address: Address;
  readonly amount: bigint;
}

/** The mint's history as far as one page reaches: enough to date every young token. */
export interface MintHistory {
  /** Signatures read, newest first, at most MINT_HISTORY_LIMIT. */
  readonly count: number;
  /** The oldest signature read; when the page was not full, the mint's creation. */
  readonly oldest: { readonly signature: string; readonly blockTime: number | null } | null;
  /** The page was full: the mint is at least as old as `oldest`, maybe older. */
  readonly truncated: boolean;
  /** Every signature read, newest first, with its slot: launch forensics reads the first slots'. */
  readonly entries?: readonly HistoryEntry[];
}

export interface HistoryEntry {
  readonly signature: string;
  readonly slot: number;
  readonly failed: boolean;
  /** Its slot was finalized when the page was read: what is read of it may be kept (fact-store.ts). */
  readonly finalized?: boolean;
}

/** Round 2's read: the holders' accounts, and those `alsoRead` asked for (null if the read failed). */
export interface HolderRead {
  readonly largest: readonly LargestAccount[];
  readonly accounts: readonly (RawAccount | null)[];
  readonly also: readonly (RawAccount | null)[] | null;
}

export interface Holder {
  readonly tokenAccount: Address;
  readonly owner: Address | null;
  readonly amount: bigint;
  readonly frozen: boolean;
  readonly delegate: Address | null;
  readonly delegatedAmount: bigint;
}

export type GovernorRead = OwnedAccount | null | 'unavailable';

/** A governing account found behind one of the mint's authorities, as read from the chain. */
export interface TokenGovernor {
  readonly authority: Address;
  readonly lead: GovernorLead;
  readonly account: GovernorRead;
  /** What the account's own bytes derive; the authority only when it matches. */
  readonly derivedAuthority: Address | null;
  /** SPL Governance: the realm its governance names, once read (absent = not read). */
  readonly realm?: GovernorRead;
}

/** A signer's token balance of the mint rose in this transaction: it bought (or minted to itself). */
export interface LaunchBuy {
  readonly wallet: string;
  readonly tokenAccount: string;
  readonly amount: bigint;
}

export interface SolTransfer {
  readonly from: string;
  readonly to: string;
  readonly lamports: bigint;
}

export interface LaunchTransaction {
  readonly signature: string;
  readonly slot: number;
  readonly blockTime: number | null;
  readonly failed: boolean;
  readonly feePayer: string;
  readonly signers: readonly string[];
  /** The mint account went from no lamports to some: this transaction created it. */
  readonly createsMint: boolean;
  readonly buys: readonly LaunchBuy[];
  readonly solTransfers: readonly SolTransfer[];
}

export type LaunchFacts =
  | { readonly status: 'not-run'; readonly reason: string }
  | {
      readonly status: 'read';
      /** Slot of the oldest signature in the page: the creation slot when the page reached it. */
      readonly firstSlot: number;
      /** Successful transactions naming the mint in the launch window. */
      readonly inWindow: number;
      readonly transactions: readonly LaunchTransaction[];
      /** In the window but not read: over the cap, or the RPC did not answer. */
      readonly unread: number;
      readonly error: string | null;
      /** The creator when the caller knows it (a pump.fun curve names it); else the creation's fee payer. */
      readonly creator: string | null;
      /** Transactions the fact store served (kept by an earlier scan), and the slots they were read at. */
      readonly kept?: { readonly transactions: number; readonly read_at_slots: readonly number[] } | null;
    };

/** One wallet traced back to who funded it with SOL (src/scans/token/insiders). */
export interface TracedWallet {
  readonly wallet: string;
  /** Why it was traced: one of the largest holders, a launch buyer, or both. */
  readonly roles: readonly ('holder' | 'buyer')[];
  /** Its funders, nearest first: [hop 1, hop 2]; shorter when the trace stopped or was cut. */
  readonly funders: readonly string[];
  /** Its first transaction was the funding, at most a day before it first touched the token. */
  readonly fresh: boolean;
  readonly fundedAt: number | null;
  /** Why a hop it needed was not read (a call refused or cut by the bound, a page too long), or null. */
  readonly cut: string | null;
  /** The cut was a refusal or the time bound (not a history longer than one page). */
  readonly refused: boolean;
}

export type InsiderFacts =
  | { readonly status: 'not-run'; readonly reason: string }
  | {
      readonly status: 'read';
      readonly wallets: readonly TracedWallet[];
      /** Why the holders or the launch buyers could not be traced (null when they were). */
      readonly holdersUnread: string | null;
      readonly buyersUnread: string | null;
      /** Why a group's trace failed outright (an answer it could not use), null when none did. */
      readonly traceFailed: string | null;
      /** Wallets left out by the caps (largest holders and buyers first). */
      readonly overCap: number;
      /** The creator when the caller knows it (a pump.fun curve names it). */
      readonly creator: string | null;
      /** What facts kept by earlier scans served the trace, and the slots they were read at. */
      readonly kept?: {
        readonly transactions: number;
        readonly first_fundings: number;
        readonly read_at_slots: readonly number[];
      } | null;
    };

export interface SimulatedTransfer {
  readonly tokenAccount: Address;
  readonly owner: Address;
  readonly balance: bigint;
  readonly amount: bigint;
  readonly destination: Address;
  /** The transaction error as the RPC reports it; null when the transfer went through. */
  readonly err: unknown;
  readonly logs: readonly string[];
  /** Balances after the simulated transfer; null when the RPC did not return them. */
  readonly sourceAfter: bigint | null;
  readonly destinationAfter: bigint | null;
}

export type TransferSimulationFacts =
  | { readonly status: 'skipped'; readonly why: string }
  | { readonly status: 'unavailable'; readonly why: string; readonly reason: string }
  | {
      readonly status: 'simulated';
      readonly why: string;
      readonly hookProgram: Address | null;
      readonly runs: readonly SimulatedTransfer[];
    };

export interface TokenFacts {
  readonly mint: Address;
  readonly mintAccount: RawAccount | null;
  readonly metadataAddress: Address;
  readonly metadataAccount: RawAccount | null;
  /** Extra accounts read with the mint, in the order asked for (null = no such account). */
  readonly extraAccounts: readonly (RawAccount | null)[];
  /** Pyth's SOL/USD price account, read with the mint (absent: not read; null: no such account). */
  readonly solUsdAccount?: RawAccount | null;
  readonly epoch: bigint | null;
  /** Largest token accounts by balance; null when the RPC refused (e.g. too many holders). */
  readonly largest: readonly LargestAccount[] | null;
  readonly largestError: string | null;
  /** The largest token accounts' data, in the order of `largest`. */
  readonly holderAccounts: readonly (RawAccount | null)[];
  /** Null when the history could not be read (the age is then unknown). */
  readonly history: MintHistory | null;
  /** Governing accounts found behind the mint's program-derived authorities (absent = not looked for). */
  readonly governors?: readonly TokenGovernor[];
  readonly nowSeconds: number;
  /** The simulated transfer (./transfer-simulation), when the scanner ran it; null for no mint. */
  readonly transferSimulation?: TransferSimulationFacts | null;
  /** Launch forensics (src/scans/token/launch), when the scan read it. */
  readonly launch?: LaunchFacts;
  /** Insiders by funding (src/scans/token/insiders), when the scan read them. */
  readonly insiders?: InsiderFacts;
}

/** The mint and its metadata, decoded once from round 1's read. */
export interface MintView {
  /** The mint's bytes decoded (initialised or not); null when they are no mint. */
  readonly mint: DecodedMint | null;
  /** Why the address holds no usable mint (none, no mint's bytes, never initialised); null when it does. */
  readonly notMint: string | null;
  /** The Metaplex metadata, when its account is the metadata program's and decodes. */
  readonly metaplex: DecodedMetadata | null;
}

/** Round 2's read with its holders decoded once: who owns each of the largest token accounts. */
export interface HeldBy {
  readonly read: HolderRead;
  /** In the order of `read.largest`. */
  readonly holders: readonly Holder[];
}

/**
 * The decoded view of a token: the facts as read, with the mint, its metadata and the largest
 * holders (with their owners) decoded once. Assessment, liquidity, the transfer simulation and
 * governance read `decoded`, never the bytes again.
 */
export interface TokenView extends TokenFacts {
  readonly decoded: MintView & {
    /** The largest holders with their owners, in the order of `largest` (none when it is null). */
    readonly holders: readonly Holder[];
    /** The reads this view was decoded from: a copy of the facts with other reads is decoded anew. */
    readonly from: DecodedFrom;
  };
}

export type DecodedFrom = Pick<TokenFacts, 'mintAccount' | 'metadataAccount' | 'largest' | 'holderAccounts'>;
