/**
 * What the paid door counts: each paid call's outcome, the revenue of fresh sales, and the calls
 * shed before their payment was touched. The operator's metrics (server/metrics.ts) implement it.
 */
import type { EndpointId } from '../catalog.js';

export type PaymentOutcome = 'verified' | 'settled' | 'replayed' | 'refused' | 'pending' | 'failed';

/** Why a paid call was refused with 503 before its payment was touched. */
export type ShedReason = 'inflight' | 'event_loop' | 'shutting_down';

export interface DoorMetrics {
  payment(outcome: PaymentOutcome): void;
  /** A fresh settlement delivered: `atomic` USDC units earned on `endpoint`. */
  revenue(endpoint: EndpointId, atomic: number): void;
  /** A paid call refused with 503 before its payment was touched. */
  shed(reason: ShedReason): void;
}
