/** /verify/tx/{signature}: one round trip, then a pure assessment. */
import type { Scanner } from '../scanner.js';
import { assessTransaction } from './assess.js';
import { gatherTxFacts } from './facts.js';

/**
 * Unfinalized results may still change (confirmed → finalized takes ~13 s, a fork can drop it):
 * cache them for a few seconds only; finalized ones keep the catalog's hour. A transaction that
 * was not found may land a moment later, so that answer is never cached: the next paid call
 * asks the chain again.
 */
const UNFINALIZED_TTL_SECONDS = 5;
const NOT_FOUND_TTL_SECONDS = 0;

export const verifyTransaction: Scanner = async (signature, { rpc, signal, facts: kept }) => {
  const facts = await gatherTxFacts(rpc, signature, signal, kept);
  const result = assessTransaction(facts);
  if (facts.tx === null) return { result, cacheTtlSeconds: NOT_FOUND_TTL_SECONDS };
  return facts.confirmation === 'finalized'
    ? { result }
    : { result, cacheTtlSeconds: UNFINALIZED_TTL_SECONDS };
};
