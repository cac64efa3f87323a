/**
 * The work a POST /watch payment buys, and how it keeps the money rules through the paid door's
 * life cycle (claim → work → markSending → settle → record → deliver):
 *
 * - admission, before any payment: the body (400), the webhook's addresses (400, the SSRF guard)
 *   and the room for one more watch (503 with Retry-After): screen.ts;
 * - work, once the payment is claimed and verified: the room is asked again, the subject's
 *   baseline is scanned fresh (the GET scanner of its kind, a cached result only if seconds old),
 *   and the watch's answer is written — its unguessable id, its `whsec_` secret, its expiry. The
 *   watch is NOT created yet: an unsettled payment must leave no active watch, and an active
 *   watch is what the triggers follow and alert for;
 * - markSending keeps that answer before the settle call, and record keeps it as the sale: from
 *   then on a replay of the payment gives this very answer, the same watch id;
 * - deliver, only after a settlement made for this request (fresh, replayed, or found on chain
 *   for a pending one): the watch is created from the answer (fulfil.ts), idempotently by its id,
 *   before the answer is handed over. So an alert is only ever sent for a watch whose payment
 *   settled, and a paid watch is never lost: if its creation fails, the payer gets a 503 saying
 *   so, and the payment's replay creates it.
 *
 * The caps are admission: asked before payment and again here, before the settle call. A watch
 * whose room filled during the settle call is created even so (the state keeps a paid watch over
 * its caps), as its payment has settled.
 */
import { randomBytes } from 'node:crypto';
import type { ScanId } from '../../catalog.js';
import { orderOfSubject } from '../../contract/watch-order.js';
import { DISCOVERY_PATHS } from '../../identity.js';
import type { Watch, WatchState } from '../model.js';
import { watchAnswer } from './answer.js';
import { watchFullError } from './refusals.js';

/** A baseline older than this is not taken from the result cache: it is scanned again. */
export const BASELINE_MAX_AGE_MS = 5_000;

/** The baseline ScanResult body of `subject` (a cached one only if at most `maxAgeMs` old). */
export type ScanBaseline = (
  kind: ScanId,
  subject: string,
  requestId: string,
  maxAgeMs: number,
) => Promise<string>;

export interface WatchProducerDeps {
  readonly state: WatchState;
  readonly scan: ScanBaseline;
  /** The kid of the key v1a deliveries are signed with. */
  readonly keyId: string;
  readonly now?: () => number;
}

const HOUR_MS = 3_600_000;

/** 144 random bits: an id no one guesses, and the only credential for the watch. */
export const newWatchId = () => `w_${randomBytes(18).toString('base64url')}`;

/** A Standard Webhooks secret: `whsec_` and base64 of 24 random bytes. */
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/** Produces the answer a POST /watch payment buys (see above); `subject` is the canonical order. */
export function createWatchProducer(deps: WatchProducerDeps) {
  const now = deps.now ?? Date.now;
  return async (subject: string, requestId: string, resource: string): Promise<string> => {
    const order = orderOfSubject(subject);
    // Asked again after the payment was claimed: refused here, it is given back unsettled.
    const refusal = await deps.state.room(order.subject);
    if (refusal !== null) throw watchFullError(refusal);
    const baseline = JSON.parse(await deps.scan(order.kind, order.subject, requestId, BASELINE_MAX_AGE_MS));
    const createdAt = now();
    const watch: Watch = {
      ...order,
      id: newWatchId(),
      createdAt,
      expiresAt: createdAt + order.hours * HOUR_MS,
      status: 'active',
      secret: newWebhookSecret(),
      latest: baseline,
      version: 0,
    };
    const jwksUrl = new URL(DISCOVERY_PATHS.signingKeys, resource).href;
    return JSON.stringify(watchAnswer(watch, { jwksUrl, keyId: deps.keyId }));
  };
}
