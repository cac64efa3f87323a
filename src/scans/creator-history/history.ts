/**
 * Creator history that a closed token account cannot hide: the two sources beside the creator's
 * token accounts (facts.ts), each bounded like the optional searches (OPTIONAL_SEARCH_MS):
 *  - round 2: getProgramAccounts on the pump program, curves whose creator (offset 49) is this one:
 *    complete where the node serves it (an own node; providers refuse the program, the public
 *    endpoint answers 410), and the creator's newest signatures (one page), served everywhere;
 *  - round 3: getTransaction of the newest MAX_HISTORY_TRANSACTIONS successful ones, all at once:
 *    which coins they created (history-decode.ts) and how the creator's balance of each moved;
 *  - round 4, only for coins found in transactions alone: their curves (one getMultipleAccounts).
 * docs/risk-model.md (/scan/pumpfun, creator history) says what each source misses.
 */
import type { Address, Base58EncodedBytes } from '@solana/kit';
import { findBondingCurveAddress } from '../../solana/decoders/pump-bonding-curve.js';
import type { RpcServes } from '../../solana/program-search.js';
import { PUMP_PROGRAM } from '../../solana/programs.js';
import type { SolanaRpc } from '../../solana/rpc.js';
import type { FactStore } from '../fact-store.js';
import { boundedSend } from '../liquidity/bounded-search.js';
import { OPTIONAL_SEARCH_MS } from '../liquidity/thresholds.js';
import { isFinalized, keptSummary, readTransaction } from '../token-facts/kept-transactions.js';
import { isSignaturePage, type SignatureEntry } from '../token-facts/transaction-json.js';
import { type CreatorTransaction, decodeCreatorTransaction } from './history-decode.js';
import { type LaunchCurveRead, readLaunchCurves } from './launch-curves.js';

/** One page of the creator's signatures: how far back its history is read. */
export const HISTORY_SIGNATURES = 1000;
/**
 * Transactions read per scan (all at once, newest first). With the launch's 10 it stays under the
 * public endpoint's 40 calls of one method per 10 s; a coin whose create is older is cut (said).
 */
export const MAX_HISTORY_TRANSACTIONS = 24;
/** Offset of the creator in a bonding curve (pump IDL). */
const CREATOR_OFFSET = 49n;

/** A source that did not run or did not answer: why. */
export interface Unavailable {
  readonly status: 'unavailable';
  readonly reason: string;
}

export interface ProgramAccountsRead {
  readonly status: 'read';
  readonly curves: readonly { readonly address: string; readonly data: Uint8Array }[];
}

export interface SignaturesRead {
  readonly status: 'read';
  /** Signatures in the page (successful or not). */
  readonly signatures: number;
  /** The page holds the creator's whole history (it was not full). */
  readonly reachedFirst: boolean;
  /** Block time of the oldest signature read (how far back the history reached). */
  readonly oldestBlockTime: number | null;
  /** Successful transactions read, and those left unread by the bound or by an error. */
  readonly transactionsRead: number;
  readonly transactionsCut: number;
  readonly error: string | null;
  /** Transactions the fact store served (kept by an earlier scan), and the slots they were read at. */
  readonly kept?: ReturnType<typeof keptSummary>;
}

/** A coin the creator's transactions show it creating, with its own trades of it. */
export interface HistoryLaunch {
  readonly mint: string;
  readonly curve: string;
  readonly createdAt: number | null;
  /** Balance moves of the creator in this coin, oldest first (positive bought, negative sold). */
  readonly moves: readonly { readonly at: number | null; readonly amount: bigint }[];
}

export interface CreatorHistoryRead {
  readonly programAccounts: ProgramAccountsRead | Unavailable;
  readonly signatures: SignaturesRead | Unavailable;
  readonly launches: readonly HistoryLaunch[];
  /** Curves of coins only the transactions found (round 4), by curve address; final outcomes kept are not read. */
  readonly curves: readonly LaunchCurveRead[];
}

type Send = ReturnType<typeof boundedSend>;
const bytesOf = (base64: string) => new Uint8Array(Buffer.from(base64, 'base64'));

async function programAccounts(rpc: SolanaRpc, creator: Address, bound: Send) {
  try {
    const filter = {
      memcmp: {
        offset: CREATOR_OFFSET,
        bytes: creator as string as Base58EncodedBytes,
        encoding: 'base58' as const,
      },
    };
    const found = await rpc
      .getProgramAccounts(PUMP_PROGRAM, { encoding: 'base64', filters: [filter] })
      .send(bound.send);
    const curves = found.map((a) => ({ address: a.pubkey as string, data: bytesOf(a.account.data[0]) }));
    return { status: 'read', curves } as const;
  } catch (e) {
    return { status: 'unavailable', reason: `getProgramAccounts on pump.fun: ${bound.why(e)}` } as const;
  }
}

async function signaturePage(rpc: SolanaRpc, creator: Address, bound: Send) {
  try {
    const page = await rpc.getSignaturesForAddress(creator, { limit: HISTORY_SIGNATURES }).send(bound.send);
    if (isSignaturePage(page)) return page;
    return {
      status: 'unavailable',
      reason: 'getSignaturesForAddress of the creator: an answer that is not a list of signatures',
    } as const;
  } catch (e) {
    return {
      status: 'unavailable',
      reason: `getSignaturesForAddress of the creator: ${bound.why(e)}`,
    } as const;
  }
}

export type HistorySources = Awaited<ReturnType<typeof readHistorySources>>;

/** Round 2: the program's curves naming the creator, and the creator's newest signatures. */
export async function readHistorySources(
  rpc: SolanaRpc,
  creator: Address,
  serves: RpcServes | undefined,
  signal?: AbortSignal,
) {
  const bound = boundedSend(signal, OPTIONAL_SEARCH_MS);
  const search = serves?.pumpCreatorSearch;
  const [program, page] = await Promise.all([
    search?.available
      ? programAccounts(rpc, creator, bound)
      : ({
          status: 'unavailable',
          reason: search
            ? `the RPC refuses getProgramAccounts on pump.fun (${search.reason ?? 'unavailable'})`
            : 'the RPC was not probed for getProgramAccounts on pump.fun',
        } as const),
    signaturePage(rpc, creator, bound),
  ]);
  return { creator, program, page, bound };
}

async function readTransactions(
  rpc: SolanaRpc,
  creator: string,
  entries: readonly SignatureEntry[],
  bound: Send,
  facts: FactStore | undefined,
) {
  let error: string | null = null;
  const reads = await Promise.all(
    entries.map((entry) =>
      readTransaction(rpc, facts, entry.signature, isFinalized(entry), bound.send).catch((e: unknown) => {
        error ??= bound.why(e);
        return null;
      }),
    ),
  );
  const decoded = reads.map((r) =>
    r === null || r.tx === null ? null : decodeCreatorTransaction(r.tx, creator),
  );
  return {
    transactions: decoded.filter((t): t is CreatorTransaction => t !== null),
    error,
    kept: keptSummary(reads),
  };
}

/** Each created mint with the creator's moves in it, oldest first. */
async function launchesOf(
  transactions: readonly CreatorTransaction[],
  mint: string,
): Promise<HistoryLaunch[]> {
  const oldestFirst = [...transactions].reverse();
  const created = new Map<string, CreatorTransaction>();
  for (const tx of oldestFirst) for (const m of tx.created) if (!created.has(m)) created.set(m, tx);
  return Promise.all(
    [...created].map(async ([m, tx]) => ({
      mint: m,
      curve: m === mint ? '' : await findBondingCurveAddress(m as Address),
      createdAt: tx.blockTime,
      moves: oldestFirst.flatMap((t) => {
        const amount = t.moves.get(m);
        return amount === undefined ? [] : [{ at: t.blockTime, amount }];
      }),
    })),
  );
}

/** Rounds 3 and 4: the transactions, then the curves of coins no other source has read. */
export async function readHistoryLaunches(
  rpc: SolanaRpc,
  sources: HistorySources,
  mint: { readonly address: string; readonly curve: string },
  known: ReadonlySet<string>,
  facts?: FactStore,
): Promise<CreatorHistoryRead> {
  const { program, page, bound, creator } = sources;
  if ('status' in page) return { programAccounts: program, signatures: page, launches: [], curves: [] };
  const successful = page.filter((s) => s.err === null);
  const chosen = successful.slice(0, MAX_HISTORY_TRANSACTIONS);
  const { transactions, error, kept } = await readTransactions(rpc, creator, chosen, bound, facts);
  const launches = (await launchesOf(transactions, mint.address)).map((l) =>
    l.mint === mint.address ? { ...l, curve: mint.curve } : l,
  );
  const fromProgram = new Set(program.status === 'read' ? program.curves.map((c) => c.address) : []);
  const unread = launches.filter(
    (l) => !known.has(l.curve) && !fromProgram.has(l.curve) && l.mint !== mint.address,
  );
  const curves = await readLaunchCurves(
    rpc,
    unread.map((l) => l.curve),
    creator,
    bound,
    facts,
  ).catch(() => []);
  const oldest = page.at(-1);
  return {
    programAccounts: program,
    signatures: {
      status: 'read',
      signatures: page.length,
      reachedFirst: page.length < HISTORY_SIGNATURES,
      oldestBlockTime: oldest?.blockTime === null || oldest === undefined ? null : Number(oldest.blockTime),
      transactionsRead: transactions.length,
      transactionsCut: successful.length - transactions.length,
      error,
      kept,
    },
    launches,
    curves,
  };
}
