/**
 * A delivery as read back from either store, checked: a record that cannot be read (corrupt,
 * cut short, or written by another version) is to be dropped once and logged by its ids, not
 * retried for ever, nor allowed to stop the deliveries queued behind it.
 */
import { z } from 'zod';
import type { StoredDelivery } from '../../watch/rules.js';

const STORED_DELIVERY = z.object({
  record: z.object({
    webhookId: z.string().min(1),
    watchId: z.string().min(1),
    createdAt: z.number(),
    state: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.array(
      z.object({ at: z.number(), status: z.number().nullable(), error: z.string().optional() }),
    ),
  }),
  body: z.string(),
});

/** Why a stored delivery cannot be used, with its watch's id when that much can be read. */
export interface Unreadable {
  readonly unreadable: string;
  readonly watchId?: string;
}

export const isUnreadable = (read: StoredDelivery | Unreadable): read is Unreadable => 'unreadable' in read;

/** The delivery `value` holds (as decoded from the store), or why it is unreadable. */
export function storedDeliveryOf(value: unknown): StoredDelivery | Unreadable {
  const checked = STORED_DELIVERY.safeParse(value);
  if (checked.success) return value as StoredDelivery;
  const issue = checked.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
  const unreadable = `not a stored delivery${where}: ${issue?.message ?? 'invalid'}`;
  const watchId = (value as { record?: { watchId?: unknown } } | null)?.record?.watchId;
  return typeof watchId === 'string' ? { unreadable, watchId } : { unreadable };
}

/** The delivery a JSON text holds, or why it is unreadable. */
export function parseStoredDelivery(json: string): StoredDelivery | Unreadable {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (e) {
    return { unreadable: `not JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  return storedDeliveryOf(value);
}
