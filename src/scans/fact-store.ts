/**
 * Facts that cannot change once the slot they were read at is finalized (a transaction's content,
 * and what is derived from it alone: who funded a wallet in it, which coin it created): kept
 * across scans, restarts and instances so a later scan need not read them again. The interface
 * the scans own, implemented by src/state/facts/ (memory, LMDB, Redis); values are JSON text so
 * every store behaves the same. Every store refuses a fact read at a slot not yet finalized
 * (`keepsFact`), and holds at most its configured number of entries, the oldest kept evicted first.
 */
export type Commitment = 'processed' | 'confirmed' | 'finalized';

export interface KeptFact {
  /** The fact as JSON text. */
  readonly value: string;
  /** The slot it was read at. */
  readonly slot: number;
}

/** A fact as read: its value, the slot it was read at, and that slot's commitment when read. */
export interface ReadFact extends KeptFact {
  readonly commitment: Commitment | null;
}

export interface FactStore {
  /** The fact `fact` about `address` (a wallet, a mint, a signature), if kept. */
  get(address: string, fact: string): Promise<KeptFact | undefined>;
  /** Keeps it if it was read at a finalized slot; resolves to whether it was kept. */
  put(address: string, fact: string, read: ReadFact): Promise<boolean>;
}

/** Only a fact read at a finalized slot is kept: below it the chain may still fork. */
export function keepsFact(read: ReadFact): boolean {
  return read.commitment === 'finalized' && Number.isSafeInteger(read.slot) && read.slot >= 0;
}

/**
 * Keeps a fact without holding up the scan that read it: the write (a few ms on LMDB, a round trip
 * on Redis) runs beside the rest of the scan, and a store that cannot take it costs nothing but
 * the fact.
 */
export function keepFact(facts: FactStore, address: string, fact: string, read: ReadFact): void {
  facts.put(address, fact, read).catch(() => false);
}
