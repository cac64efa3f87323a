/**
 * GET /watch/{id}'s answer: the watch's state, its expiry, its latest verdict and its last
 * deliveries. Free, for whoever holds the id; nothing in it names another watch.
 */
import { z } from '@hono/zod-openapi';
import { WATCH_KINDS } from '../../catalog.js';
import { ScanResultSchema } from '../../contract/schemas.js';
import type { DeliveryRecord, Watch } from '../model.js';

/** Deliveries a view lists at most, newest first. */
export const VIEW_DELIVERIES = 20;

const DeliverySchema = z.object({
  webhook_id: z.string().meta({ description: 'The Standard Webhooks webhook-id: the same on every retry.' }),
  state: z.enum(['pending', 'delivered', 'failed']),
  created_at: z.string(),
  attempts: z.number().int(),
  last_attempt_at: z.string().nullable(),
  last_status: z
    .number()
    .int()
    .nullable()
    .meta({ description: "The webhook's last HTTP status; null if none came." }),
  last_error: z.string().nullable(),
});

export const WatchViewSchema = z
  .object({
    watch_id: z.string(),
    kind: z.enum(WATCH_KINDS),
    subject: z.string(),
    webhook: z.string(),
    status: z.enum(['active', 'cancelled', 'expired']),
    created_at: z.string(),
    expires_at: z.string(),
    latest: ScanResultSchema.meta({ description: 'The verdict the next assessment is compared with.' }),
    deliveries: z.array(DeliverySchema),
  })
  .meta({ description: 'A watch, its latest verdict and its last deliveries (newest first).' });

const iso = (ms: number) => new Date(ms).toISOString();

function deliveryView(record: DeliveryRecord) {
  const last = record.attempts.at(-1);
  return {
    webhook_id: record.webhookId,
    state: record.state,
    created_at: iso(record.createdAt),
    attempts: record.attempts.length,
    last_attempt_at: last === undefined ? null : iso(last.at),
    last_status: last?.status ?? null,
    last_error: last?.error ?? null,
  };
}

export function watchView(watch: Watch, deliveries: readonly DeliveryRecord[], now: number) {
  // An active watch past its expiry is expired, whether or not the state has marked it yet.
  const status = watch.status === 'active' && watch.expiresAt <= now ? 'expired' : watch.status;
  return {
    watch_id: watch.id,
    kind: watch.kind,
    subject: watch.subject,
    webhook: watch.webhook,
    status,
    created_at: iso(watch.createdAt),
    expires_at: iso(watch.expiresAt),
    latest: watch.latest,
    deliveries: deliveries.map(deliveryView),
  };
}
