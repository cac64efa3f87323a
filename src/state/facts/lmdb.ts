/**
 * Facts kept on local disk in the service's LMDB environment (STATE_DIR, beside the payments and
 * the watches), so they outlive a restart and every process on the machine shares them. Two
 * databases: the facts by key, and their keys by the order they were kept (a sequence number),
 * which each write trims to the bound, oldest first (bounds.ts), in the same write transaction.
 */
import type { Database } from 'lmdb';
import { type FactStore, keepsFact } from '../../scans/fact-store.js';
import { useEnvironment } from '../lmdb-environment.js';
import { type FactStoreOptions, factKey, maxEntriesOf } from './bounds.js';

/** Names of the LMDB databases (tests read them directly). */
export const LMDB_FACTS_DB = 'facts';
export const LMDB_FACTS_ORDER_DB = 'facts-order';

interface Entry {
  readonly value: string;
  readonly slot: number;
  /** Its place in `facts-order`. */
  readonly seq: number;
}

/** The number of facts kept, under a key no fact has (a fact's key always holds a colon). */
const COUNT_KEY = '#count';
type Stored = Entry | number;

export interface LmdbFactStore extends FactStore {
  close(): Promise<void>;
}

export async function openLmdbFactStore(
  options: FactStoreOptions & { readonly path: string },
): Promise<LmdbFactStore> {
  const maxEntries = maxEntriesOf(options);
  const environment = await useEnvironment(options.path);
  const facts = environment.root.openDB<Stored, string>({ name: LMDB_FACTS_DB, encoding: 'json' });
  const order = environment.root.openDB<string, number>({
    name: LMDB_FACTS_ORDER_DB,
    encoding: 'string',
    keyEncoding: 'uint32',
  });
  return {
    async get(address, fact) {
      const entry = facts.get(factKey(address, fact));
      return typeof entry !== 'object' ? undefined : { value: entry.value, slot: entry.slot };
    },
    async put(address, fact, read) {
      if (!keepsFact(read)) return false;
      const key = factKey(address, fact);
      await environment.root.transaction(() => {
        keep(facts, order, key, { value: read.value, slot: read.slot });
        trim(facts, order, maxEntries);
      });
      return true;
    },
    close: () => environment.close(),
  };
}

/** Writes the fact as the newest kept (inside a write transaction). */
function keep(
  facts: Database<Stored, string>,
  order: Database<string, number>,
  key: string,
  fact: { value: string; slot: number },
): void {
  const previous = facts.get(key);
  if (typeof previous === 'object') order.removeSync(previous.seq);
  else facts.putSync(COUNT_KEY, countOf(facts) + 1);
  const [newest] = [...order.getKeys({ reverse: true, limit: 1 })];
  const seq = newest === undefined ? 1 : newest + 1;
  order.putSync(seq, key);
  facts.putSync(key, { ...fact, seq });
}

/** Evicts the oldest kept facts past the bound (inside a write transaction). */
function trim(facts: Database<Stored, string>, order: Database<string, number>, maxEntries: number): void {
  const count = countOf(facts);
  if (count <= maxEntries) return;
  const oldest = [...order.getRange({ limit: count - maxEntries })];
  for (const { key, value } of oldest) {
    order.removeSync(key);
    facts.removeSync(value);
  }
  facts.putSync(COUNT_KEY, count - oldest.length);
}

function countOf(facts: Database<Stored, string>): number {
  const count = facts.get(COUNT_KEY);
  return typeof count === 'number' ? count : 0;
}
