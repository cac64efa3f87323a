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

const BIGINT_TAG = '#bigint';

/** A fact's value as the stores keep it: JSON, Kit's bigints tagged so they come back as bigints. */
export function factText(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'bigint' ? { [BIGINT_TAG]: String(v) } : v,
  );
}

/** The value `factText` wrote; throws on text that is not JSON. */
export function factValue(text: string): unknown {
  return JSON.parse(text, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const tagged = (v as Record<string, unknown>)[BIGINT_TAG];
    return typeof tagged === 'string' && Object.keys(v).length === 1 ? BigInt(tagged) : v;
  });
}

/**
 * The fact `fact` about `address` as its reader parses it, with the slot it was read at; undefined
 * when none is kept, or when the store or the kept text cannot be read: the scan then reads the
 * RPC, as without a store.
 */
export async function keptFact<T>(
  facts: FactStore | undefined,
  address: string,
  fact: string,
  parse: (text: string) => T = factValue as (text: string) => T,
): Promise<{ readonly value: T; readonly slot: number } | undefined> {
  if (facts === undefined) return undefined;
  try {
    const kept = await facts.get(address, fact);
    return kept === undefined ? undefined : { value: parse(kept.value), slot: kept.slot };
  } catch {
    return undefined;
  }
}
