/**
 * Everything /scan/program needs, in two sequential round trips (three or four on a governed path):
 *   1. the program account and its ProgramData (address derived locally) in one
 *      getMultipleAccounts, in parallel with the ProgramData's signature history;
 *   2. the upgrade authority's account, in parallel with the recent management transactions;
 *   3. only when the authority is a Squads v4 vault (a PDA holding lamports, whose multisig a
 *      Squads instruction in the history names): that multisig's account; likewise the Squads v3
 *      or Coral multisig, or the SPL Governance account, that governors.ts finds behind it;
 *   4. only for SPL Governance: the realm its governance names (the third round trip when the
 *      governance account is the authority itself and was read in step 2).
 * A program whose authority is a key, none, or an unrecognised PDA costs two round trips.
 */
import type { Address, Base64EncodedDataResponse, Signature } from '@solana/kit';
import { errorMessage } from '../../errors.js';
import { isOnCurveAddress } from '../../solana/address-curve.js';
import { decodeGovernance } from '../../solana/decoders/spl-governance.js';
import { findSquadsVaultAddress } from '../../solana/decoders/squads.js';
import { findProgramDataAddress } from '../../solana/decoders/upgradeable-loader.js';
import { SQUADS_V4_PROGRAM, SYSTEM_PROGRAM } from '../../solana/programs.js';
import type { SolanaRpc } from '../../solana/rpc.js';
import { rpcReadFailed } from '../scanner.js';
import { derivedAuthority, type GovernorLead, governanceAuthority, governorLead } from './governors.js';
import { instructionsOf, type RecordedTransaction } from './history.js';

/** Management transactions read per scan (ProgramData is touched only by deploys, upgrades and authority changes). */
export const HISTORY_LIMIT = 50;
export const TRANSACTIONS_READ = 20;

export interface RawAccount {
  readonly owner: Address;
  readonly executable: boolean;
  readonly lamports: bigint;
  readonly data: Uint8Array;
}

/** Vault indexes tried; teams use vault 0 almost always. */
const VAULT_INDEXES = [0, 1, 2, 3];
/** Multisig candidates tried, so a history full of Squads instructions cannot make us derive forever. */
const MAX_CANDIDATES = 8;

export interface SquadsVault {
  readonly multisig: Address;
  readonly index: number;
  readonly account: RawAccount | null | 'unavailable';
}

/** A Squads v3 / Coral multisig or SPL Governance account found behind the authority, as read. */
export interface Governor {
  readonly lead: GovernorLead;
  readonly account: RawAccount | null | 'unavailable';
  /** What the account's own bytes derive under its program; the authority only when it matches. */
  readonly derivedAuthority: Address | null;
  /** SPL Governance: the realm its governance names (null = no such account); null for multisigs. */
  readonly realm: RawAccount | null | 'unavailable';
}

type Read = RawAccount | null | 'unavailable';

export interface ProgramFacts {
  readonly programId: Address;
  readonly program: RawAccount | null;
  readonly programDataAddress: Address;
  readonly programData: RawAccount | null;
  /** Signatures touching ProgramData, newest first; null when they could not be read. */
  readonly signatures:
    | readonly { signature: string; slot: bigint; blockTime: number | null; err: unknown }[]
    | null;
  readonly historyError: string | null;
  readonly transactions: readonly RecordedTransaction[];
  /** The upgrade authority's account: null = no such account; 'unavailable' = could not be read. */
  readonly authorityAccount: RawAccount | null | 'unavailable';
  /** When the authority is a Squads v4 vault: its multisig (found in the history) and that account. */
  readonly squadsVault: SquadsVault | null;
  /** When the authority is held by a Squads v3 / Coral multisig or an SPL Governance (absent = not looked for). */
  readonly governor?: Governor | null;
  readonly nowSeconds: number;
}

const toAccount = (
  a: { owner: Address; executable: boolean; lamports: bigint; data: Base64EncodedDataResponse } | null,
) =>
  a === null
    ? null
    : {
        owner: a.owner,
        executable: a.executable,
        lamports: a.lamports,
        data: new Uint8Array(Buffer.from(a.data[0], 'base64')),
      };

export async function gatherProgramFacts(
  rpc: SolanaRpc,
  programId: Address,
  decodeAuthority: (programData: RawAccount | null) => Address | null,
  now: () => number,
  abortSignal?: AbortSignal,
): Promise<ProgramFacts> {
  const send = abortSignal ? { abortSignal } : {};
  const programDataAddress = await findProgramDataAddress(programId);
  const [accounts, history] = await Promise.all([
    rpc
      .getMultipleAccounts([programId, programDataAddress], { encoding: 'base64' })
      .send(send)
      .catch((e: unknown) => {
        throw rpcReadFailed(e);
      }),
    rpc
      .getSignaturesForAddress(programDataAddress, { limit: HISTORY_LIMIT })
      .send(send)
      .then((list) => ({ list, error: null }))
      .catch((e: unknown) => ({ list: null, error: errorMessage(e) })),
  ]);
  const program = toAccount(accounts.value[0] ?? null);
  const programData = toAccount(accounts.value[1] ?? null);
  const authority = decodeAuthority(programData);
  const recent = (history.list ?? []).slice(0, TRANSACTIONS_READ);

  const [authorityAccount, transactions] = await Promise.all([
    authority === null
      ? Promise.resolve(null)
      : rpc
          .getAccountInfo(authority, { encoding: 'base64' })
          .send(send)
          .then((r) => toAccount(r.value))
          .catch(() => 'unavailable' as const),
    Promise.all(
      recent.map((s) =>
        rpc
          .getTransaction(s.signature as Signature, { encoding: 'base64', maxSupportedTransactionVersion: 0 })
          .send(send)
          .catch(() => null),
      ),
    ),
  ]);

  const recorded = recordedTransactions(recent, transactions);
  const read = (address: Address): Promise<Read> =>
    rpc
      .getAccountInfo(address, { encoding: 'base64' })
      .send(send)
      .then((r) => toAccount(r.value))
      .catch(() => 'unavailable' as const);
  const { squadsVault, governor } = await governingAccount(authority, authorityAccount, recorded, read);

  return {
    programId,
    program,
    programDataAddress,
    programData,
    signatures:
      history.list?.map((s) => ({
        signature: s.signature,
        slot: s.slot,
        blockTime: s.blockTime === null ? null : Number(s.blockTime),
        err: s.err,
      })) ?? null,
    historyError: history.error,
    transactions: recorded,
    authorityAccount,
    squadsVault,
    governor,
    nowSeconds: Math.floor(now() / 1000),
  };
}

/** What getTransaction (base64) answers, as far as the history reads it. */
interface FetchedTransaction {
  readonly slot: bigint;
  readonly blockTime: bigint | null;
  readonly transaction: Base64EncodedDataResponse;
  readonly meta: {
    readonly err: unknown;
    readonly loadedAddresses?: { readonly writable: readonly string[]; readonly readonly: readonly string[] };
    readonly innerInstructions?: readonly unknown[] | null;
  } | null;
}

function recordedTransactions(
  recent: readonly { signature: string }[],
  fetched: readonly (FetchedTransaction | null)[],
): RecordedTransaction[] {
  return fetched.flatMap((tx, i) =>
    tx === null || tx.meta === null
      ? []
      : [
          {
            signature: recent[i]!.signature,
            slot: tx.slot,
            blockTime: tx.blockTime === null ? null : Number(tx.blockTime),
            wire: tx.transaction[0],
            err: tx.meta.err,
            loadedAddresses: tx.meta.loadedAddresses ?? { writable: [], readonly: [] },
            innerInstructions: (tx.meta.innerInstructions ??
              []) as unknown as RecordedTransaction['innerInstructions'],
          },
        ],
  );
}

/**
 * Rounds three and four, only for a program-derived authority something recognisable governs:
 * a Squads v4 vault (a PDA with no program-owned account — a vault holds only lamports — whose
 * multisig a Squads instruction in the history names), else a lead from governors.ts.
 */
async function governingAccount(
  authority: Address | null,
  authorityAccount: Read,
  recorded: readonly RecordedTransaction[],
  read: (address: Address) => Promise<Read>,
): Promise<{ squadsVault: SquadsVault | null; governor: Governor | null }> {
  if (authority === null || authorityAccount === 'unavailable' || isOnCurveAddress(authority)) {
    return { squadsVault: null, governor: null };
  }
  const mayBeVault = authorityAccount === null || authorityAccount.owner === SYSTEM_PROGRAM;
  const vault = mayBeVault ? await squadsVaultOf(authority, recorded) : null;
  if (vault !== null)
    return { squadsVault: { ...vault, account: await read(vault.multisig) }, governor: null };
  const lead =
    governanceAuthority(authority, authorityAccount) ??
    (mayBeVault ? await governorLead(authority, recorded) : null);
  return {
    squadsVault: null,
    governor: lead === null ? null : await readGovernor(lead, authorityAccount, read),
  };
}

/** Reads the lead's account (already in hand when it is the authority) and, for a governance, its realm. */
async function readGovernor(
  lead: GovernorLead,
  authorityAccount: RawAccount | null,
  read: (address: Address) => Promise<Read>,
): Promise<Governor> {
  const account = lead.path.type === 'governance' ? authorityAccount : await read(lead.address);
  const usable = account === 'unavailable' ? null : account;
  const governance = lead.kind === 'spl-governance' && usable !== null ? decodeGovernance(usable.data) : null;
  return {
    lead,
    account,
    derivedAuthority: await derivedAuthority(lead, usable),
    realm: governance?.ok ? await read(governance.value.realm) : null,
  };
}

/** The Squads multisig whose vault `authority` is, if a transaction in the history names it. */
async function squadsVaultOf(
  authority: Address,
  history: readonly RecordedTransaction[],
): Promise<{ multisig: Address; index: number } | null> {
  // Squads v4 instructions name the multisig first (vault_transaction_execute, proposals, …).
  const candidates = [
    ...new Set(
      history.flatMap((tx) => instructionsOf(tx, SQUADS_V4_PROGRAM).map((ix) => ix.accounts[0] ?? '')),
    ),
  ]
    .filter((a) => a !== '')
    .slice(0, MAX_CANDIDATES) as Address[];
  for (const multisig of candidates) {
    for (const index of VAULT_INDEXES) {
      if ((await findSquadsVaultAddress(multisig, index)) === authority) return { multisig, index };
    }
  }
  return null;
}
