/** /verify/tx/{signature}: one round trip, then a pure assessment. */
import type { Scanner } from '../scanner.js';
import { assessTransaction } from './assess.js';
import { gatherTxFacts } from './facts.js';

/** Unfinalized results may still change: cache them for a minute only (finalized: the catalog's hour). */
const UNFINALIZED_TTL_SECONDS = 60;

export const verifyTransaction: Scanner = async (signature, { rpc, signal }) => {
  const facts = await gatherTxFacts(rpc, signature, signal);
  const result = assessTransaction(facts);
  return facts.confirmation === 'finalized'
    ? { result }
    : { result, cacheTtlSeconds: UNFINALIZED_TTL_SECONDS };
};
