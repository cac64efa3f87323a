/**
 * Account changes over the RPC's WebSocket (`accountSubscribe`, through @solana/kit's subscriptions
 * client): one subscription per account, shared by every watch that follows it, closed when the
 * last one lets go, and re-opened with backoff when the connection drops.
 */
import { type Address, createSolanaRpcSubscriptions } from '@solana/kit';
import { pause } from './pause.js';

export interface AccountFeed {
  /** Calls `changed` on each change of `address` until the returned function is called. */
  follow(address: string, changed: () => void): () => void;
  /** Subscriptions the server has confirmed and not lost. */
  readonly open: number;
  close(): void;
}

/** What the feed tells its owner (metrics and triggers). */
export interface AccountFeedEvents {
  /** The number of open subscriptions changed. */
  opened?(open: number): void;
  /**
   * A lost subscription is open again. Changes made while it was down were not notified, so the
   * followers are called once, as if the account had changed.
   */
  reopened?(address: string): void;
}

export interface AccountFeedOptions {
  readonly wsUrl: string;
  readonly events?: AccountFeedEvents;
  /** Wait before the `attempt`-th re-open in a row (1, 2, …). */
  readonly backoffMs?: (attempt: number) => number;
}

/** 250 ms, doubling, at most 30 s, with jitter so many followers do not reconnect in step. */
export function defaultBackoffMs(attempt: number): number {
  const base = Math.min(30_000, 250 * 2 ** Math.min(attempt - 1, 10));
  return base / 2 + Math.random() * (base / 2);
}

interface Followed {
  readonly followers: Set<() => void>;
  readonly stop: AbortController;
  open: boolean;
}

export function createAccountFeed(options: AccountFeedOptions): AccountFeed {
  const subscriptions = createSolanaRpcSubscriptions(options.wsUrl);
  const backoffMs = options.backoffMs ?? defaultBackoffMs;
  const followed = new Map<string, Followed>();
  let open = 0;
  const setOpen = (entry: Followed, value: boolean) => {
    if (entry.open === value) return;
    entry.open = value;
    open += value ? 1 : -1;
    options.events?.opened?.(open);
  };
  const notify = (entry: Followed) => {
    for (const changed of [...entry.followers]) changed();
  };

  /** Keeps one account's subscription open until it is stopped. */
  async function keepOpen(address: string, entry: Followed): Promise<void> {
    const abortSignal = entry.stop.signal;
    let failures = 0;
    let lost = false;
    while (!abortSignal.aborted) {
      try {
        const changes = await subscriptions
          .accountNotifications(address as Address, { commitment: 'confirmed', encoding: 'base64' })
          .subscribe({ abortSignal });
        setOpen(entry, true);
        failures = 0;
        if (lost) {
          options.events?.reopened?.(address);
          notify(entry);
        }
        for await (const _ of changes) notify(entry);
      } catch {
        // The connection closed or could not be opened: re-opened below, after a wait.
      }
      setOpen(entry, false);
      if (abortSignal.aborted) return;
      lost = true;
      failures += 1;
      await pause(backoffMs(failures), abortSignal);
    }
  }

  return {
    follow(address, changed) {
      let entry = followed.get(address);
      if (entry === undefined) {
        const created: Followed = { followers: new Set(), stop: new AbortController(), open: false };
        followed.set(address, created);
        void keepOpen(address, created);
        entry = created;
      }
      const current = entry;
      current.followers.add(changed);
      return () => {
        current.followers.delete(changed);
        if (current.followers.size > 0 || followed.get(address) !== current) return;
        followed.delete(address);
        current.stop.abort();
        setOpen(current, false);
      };
    },
    get open() {
      return open;
    },
    close() {
      for (const entry of followed.values()) {
        entry.stop.abort();
        setOpen(entry, false);
      }
      followed.clear();
    },
  };
}
