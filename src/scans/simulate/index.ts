/** POST /simulate/tx: at most two round trips (one more for lookup tables), then a pure assessment. */
import type { Scanner } from '../scanner.js';
import { assessSimulation } from './assess.js';
import { gatherSimulateFacts } from './facts.js';

/** The subject is the canonical base64 of the wire transaction (checked by wire.ts before payment). */
export const simulateTransaction: Scanner = async (wire, { rpc, signal }) => {
  const facts = await gatherSimulateFacts(rpc, wire, signal);
  return { result: assessSimulation(facts) };
};
