/**
 * The funding trace, hop by hop in lockstep: every page of a hop is asked for at once, then every
 * transaction those pages point at, so a hop costs two round trips however many wallets it has.
 * Each page and each transaction is read once per scan (a funder paying four wallets in one
 * transaction is one read), whoever asks for it; errors are kept as the reason a trace was cut.
 */
import type { Address } from '@solana/kit';
import type { SolanaRpc } from '../../../solana/rpc.js';
import type { FactStore } from '../../fact-store.js';
import type { boundedSend } from '../../liquidity/bounded-search.js';
import { isFinalized, readTransaction, type TransactionRead } from '../../token-facts/kept-transactions.js';
import { isSignaturePage, type SignatureEntry } from '../../token-facts/transaction-json.js';
import { FRESH_SECONDS } from './clusters.js';
import { FirstFundings } from './first-funding.js';
import { type FundingRead, fundingOf } from './funding.js';

/** One page of a wallet's signatures: a wallet with more is no fresh one, and is not traced. */
export const WALLET_SIGNATURES = 1000;

type Page = readonly SignatureEntry[];
type Read<T> = { ok: true; value: T } | { ok: false; why: string };

/** What one hop found for one wallet. */
export interface Hop {
  readonly funder: string | null;
  readonly fundedAt: number | null;
  readonly fresh: boolean;
  readonly cut: string | null;
  /** The cut was a refusal or the time bound (not a page too long). */
  readonly refused: boolean;
}

export interface HopTarget {
  readonly wallet: string;
  /** 'mint': funding before it first touched the token; 'none': its first funding (a funder). */
  readonly touch: 'mint' | 'none';
  /** When it first touched the token, when known otherwise (a launch buyer's first buy). */
  readonly touchedAt: number | null;
}

const none = (cut: string | null = null, refused = false): Hop => ({
  funder: null,
  fundedAt: null,
  fresh: false,
  cut,
  refused,
});

export class FundingReads {
  private readonly pages = new Map<string, Promise<Read<Page>>>();
  private readonly transactions = new Map<string, Promise<Read<TransactionRead>>>();
  /** A funder's own first funding, kept by an earlier scan or kept now (first-funding.ts). */
  readonly firstFundings: FirstFundings;

  constructor(
    private readonly rpc: SolanaRpc,
    readonly mint: string,
    private readonly bound: ReturnType<typeof boundedSend>,
    /** The mint's own history page, to find a wallet's first touch of the token among its signatures. */
    private readonly mintSignatures: ReadonlySet<string>,
    private readonly facts?: FactStore,
  ) {
    this.firstFundings = new FirstFundings(facts);
  }

  private page(wallet: string): Promise<Read<Page>> {
    let read = this.pages.get(wallet);
    if (read === undefined) {
      read = this.rpc
        .getSignaturesForAddress(wallet as Address, { limit: WALLET_SIGNATURES })
        .send(this.bound.send)
        .then(
          (value): Read<Page> =>
            isSignaturePage(value)
              ? { ok: true, value }
              : { ok: false, why: 'getSignaturesForAddress: an answer that is not a list of signatures' },
        )
        .catch(
          (e: unknown): Read<Page> => ({ ok: false, why: `getSignaturesForAddress: ${this.bound.why(e)}` }),
        );
      this.pages.set(wallet, read);
    }
    return read;
  }

  private transaction(entry: SignatureEntry): Promise<Read<TransactionRead>> {
    let read = this.transactions.get(entry.signature);
    if (read === undefined) {
      read = readTransaction(this.rpc, this.facts, entry.signature, isFinalized(entry), this.bound.send)
        .then((value): Read<TransactionRead> => ({ ok: true, value }))
        .catch(
          (e: unknown): Read<TransactionRead> => ({ ok: false, why: `getTransaction: ${this.bound.why(e)}` }),
        );
      this.transactions.set(entry.signature, read);
    }
    return read;
  }

  /** Every transaction read so far (the evidence says which an earlier scan kept). */
  async transactionsRead(): Promise<TransactionRead[]> {
    const reads = await Promise.all(this.transactions.values());
    return reads.flatMap((r) => (r.ok ? [r.value] : []));
  }

  /** The signature to read from a page, and what the page says of the wallet's first touch. */
  private pick(page: Page, target: HopTarget) {
    const oldestFirst = [...page].reverse();
    const at =
      target.touch === 'mint' ? oldestFirst.findIndex((s) => this.mintSignatures.has(s.signature)) : -1;
    const blockTime = at >= 0 ? (oldestFirst[at]!.blockTime ?? null) : null;
    const touched = blockTime === null ? target.touchedAt : Number(blockTime);
    const before = at >= 0 ? oldestFirst.slice(0, at) : oldestFirst;
    return { first: oldestFirst[0]?.signature, candidate: before.find((s) => s.err === null), touched };
  }

  /**
   * One hop for every target: all pages at once, then all the transactions they point at. A
   * wallet's first funding (touch 'none') kept by an earlier scan reads nothing.
   */
  async hop(targets: readonly HopTarget[]): Promise<Hop[]> {
    const kept = await Promise.all(
      targets.map(async (t) => {
        const known = t.touch === 'none' ? await this.firstFundings.kept(t.wallet) : undefined;
        // As read now: no funder in its first transaction ends the chain, as none() does.
        return known && (known.funder === null ? none() : { ...none(), ...known });
      }),
    );
    const unknown = targets.filter((_, i) => kept[i] === undefined);
    const read = await this.readHop(unknown);
    return targets.map((_, i) => kept[i] ?? read[unknown.indexOf(targets[i]!)]!);
  }

  private async readHop(targets: readonly HopTarget[]): Promise<Hop[]> {
    if (targets.length === 0) return [];
    const pages = await Promise.all(targets.map((t) => this.page(t.wallet)));
    const picks = pages.map((p, i) =>
      p.ok && p.value.length < WALLET_SIGNATURES ? this.pick(p.value, targets[i]!) : null,
    );
    const reads = await Promise.all(picks.map((p) => (p?.candidate ? this.transaction(p.candidate) : null)));
    return targets.map((target, i) => {
      const page = pages[i]!;
      if (!page.ok) return none(page.why, true);
      const pick = picks[i];
      if (pick === null || pick === undefined)
        return none(`more than ${WALLET_SIGNATURES} transactions: its funding is beyond one page`);
      const read = reads[i];
      if (read === null || read === undefined) return none();
      if (!read.ok) return none(read.why, true);
      // A transaction its page lists but the RPC does not serve, or cannot be read: the trace is cut.
      if (read.value.tx === null) return none('getTransaction: a listed transaction was not served', true);
      const funding = fundingOf(read.value.tx, target.wallet, target.touch === 'mint' ? this.mint : null);
      if (funding === null) return none('getTransaction: an answer that is not a readable transaction', true);
      if (target.touch === 'none')
        this.firstFundings.keep(target.wallet, funding, pick.candidate!, read.value);
      if (funding.touchesMint || funding.funder === null) return none();
      const isFirst = pick.candidate?.signature === pick.first;
      return {
        funder: funding.funder,
        fundedAt: funding.blockTime,
        fresh: target.touch === 'mint' && fresh(funding, isFirst, pick.touched),
        cut: null,
        refused: false,
      };
    });
  }
}

/** Its first transaction was the funding, at most FRESH_SECONDS before it first touched the token. */
function fresh(funding: FundingRead, isFirst: boolean, touched: number | null): boolean {
  return (
    isFirst &&
    funding.blockTime !== null &&
    touched !== null &&
    touched >= funding.blockTime &&
    touched - funding.blockTime <= FRESH_SECONDS
  );
}
