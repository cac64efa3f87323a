/** Where the Redis watch state keeps each thing, under one prefix. */
export function redisWatchKeys(prefix: string) {
  return {
    watch: (id: string) => `${prefix}w:${id}`,
    active: `${prefix}active`,
    subject: (subject: string) => `${prefix}subject:${subject}`,
    log: (id: string) => `${prefix}log:${id}`,
    deliveryPrefix: `${prefix}d:`,
    delivery: (webhookId: string) => `${prefix}d:${webhookId}`,
    /** The webhook-ids not yet delivered or failed: re-queued at start (a crash between recording and queueing). */
    pending: `${prefix}pending`,
    /** The pub/sub channel on which a watch created or cancelled is announced to every instance. */
    news: `${prefix}news`,
  };
}

export type RedisWatchKeys = ReturnType<typeof redisWatchKeys>;
