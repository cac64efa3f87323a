/**
 * A wallet's first funding, a fact that cannot change: who sent it SOL in its oldest successful
 * transaction (its whole history in one page, so that one is its first), and when. Once that
 * transaction's slot is finalized it is kept (fact-store.ts), and a later scan that traces the same
 * wallet as a funder (its first funding, not its first touch of a token) reads neither its page
 * nor the transaction. What a scan served from here is counted for its evidence.
 */
import { type FactStore, keepFact, keptFact } from '../../fact-store.js';
import {
  isFinalized,
  type PageEntryStatus,
  type TransactionRead,
} from '../../token-facts/kept-transactions.js';
import type { FundingRead } from './funding.js';

export const FIRST_FUNDING_FACT = 'first-funding';

interface Kept {
  readonly funder: string | null;
  readonly fundedAt: number | null;
  /** The transaction that funded it (its oldest successful one). */
  readonly signature: string;
}

export class FirstFundings {
  /** The slots the facts served were read at. */
  readonly servedAt: number[] = [];

  constructor(private readonly facts?: FactStore) {}

  /** The wallet's first funding (its funder, or null when that transaction sent it nothing), when kept. */
  async kept(wallet: string): Promise<{ funder: string | null; fundedAt: number | null } | undefined> {
    const fact = await keptFact(this.facts, wallet, FIRST_FUNDING_FACT, (text) => JSON.parse(text) as Kept);
    if (fact === undefined) return undefined;
    this.servedAt.push(fact.slot);
    return { funder: fact.value.funder, fundedAt: fact.value.fundedAt };
  }

  /** Keeps what a wallet's oldest successful transaction says of its funding, once it is final. */
  keep(wallet: string, funding: FundingRead, entry: PageEntryStatus, read: TransactionRead): void {
    const slot = (read.tx as { slot?: unknown }).slot;
    if (this.facts === undefined || (typeof slot !== 'bigint' && typeof slot !== 'number')) return;
    const value: Kept = { funder: funding.funder, fundedAt: funding.blockTime, signature: funding.signature };
    const commitment = isFinalized(entry) ? 'finalized' : 'confirmed';
    const put = { value: JSON.stringify(value), slot: Number(slot), commitment } as const;
    keepFact(this.facts, wallet, FIRST_FUNDING_FACT, put);
  }
}
