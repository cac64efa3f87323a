/**
 * Facts in this process's memory (tests, and a service whose STATE_DIR is not to be written):
 * a Map in the order facts were kept, the oldest evicted past the bound (bounds.ts).
 */
import { type FactStore, type KeptFact, keepsFact } from '../../scans/fact-store.js';
import { type FactStoreOptions, factKey, maxEntriesOf } from './bounds.js';

export function createMemoryFactStore(options: FactStoreOptions = {}): FactStore {
  const maxEntries = maxEntriesOf(options);
  const facts = new Map<string, KeptFact>();
  return {
    async get(address, fact) {
      return facts.get(factKey(address, fact));
    },
    async put(address, fact, read) {
      if (!keepsFact(read)) return false;
      const key = factKey(address, fact);
      // Deleted first so a fact kept again moves to the newest end.
      facts.delete(key);
      facts.set(key, { value: read.value, slot: read.slot });
      while (facts.size > maxEntries) {
        const oldest = facts.keys().next().value;
        if (oldest === undefined) break;
        facts.delete(oldest);
      }
      return true;
    },
  };
}
