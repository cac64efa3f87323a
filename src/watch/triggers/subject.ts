/** One watched subject: its watches, the accounts followed for it, and its one re-scan at a time. */
import type { ScanResult } from '../../contract/schemas.js';
import type { Watch, WatchKind } from '../model.js';
import type { AccountFeed } from './account-feed.js';

export class Subject {
  readonly key: string;
  /** Order of its last re-scan among all subjects' (0 = never): the periodic check takes the lowest. */
  lastScan = 0;
  private readonly watched = new Map<string, Watch>();
  private readonly unfollow = new Map<string, () => void>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again: (() => Promise<void>) | undefined;

  constructor(
    readonly kind: WatchKind,
    readonly address: string,
    private readonly feed: AccountFeed | null,
    private readonly changed: () => void,
  ) {
    this.key = `${kind}:${address}`;
  }

  watches(): Watch[] {
    return [...this.watched.values()];
  }

  accounts(): string[] {
    return [...this.unfollow.keys()];
  }

  /**
   * The subject's active watches as the state has them. A verdict this process recorded and the
   * state does not show yet (a lower version) is kept, so the same change is not reported twice.
   */
  setWatches(active: readonly Watch[]): void {
    const previous = new Map(this.watched);
    this.watched.clear();
    for (const watch of active) {
      const local = previous.get(watch.id);
      this.watched.set(watch.id, local !== undefined && local.version > watch.version ? local : watch);
    }
  }

  /** The watch's change was handed over: `result` is what the next scan is compared with. */
  recorded(watch: Watch, result: ScanResult): void {
    if (!this.watched.has(watch.id)) return;
    this.watched.set(watch.id, { ...watch, latest: result, version: watch.version + 1 });
  }

  /** Follows exactly `accounts` from now on (no feed: nothing to follow). */
  follow(accounts: readonly string[]): void {
    if (this.feed === null) return;
    const wanted = new Set(accounts);
    for (const [address, stop] of this.unfollow) {
      if (wanted.has(address)) continue;
      stop();
      this.unfollow.delete(address);
    }
    for (const address of wanted) {
      if (!this.unfollow.has(address)) this.unfollow.set(address, this.feed.follow(address, this.changed));
    }
  }

  /**
   * Runs `task` `ms` after the first call; calls meanwhile join it (a burst of notifications, one
   * re-scan). Not pushed back by each call: an account that changes every slot still gets scanned.
   */
  debounce(ms: number, task: () => void): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      task();
    }, ms);
  }

  /** Runs `task` now, or once after the running one (however many asked meanwhile). */
  serialize(task: () => Promise<void>): Promise<void> {
    if (this.running !== undefined) {
      this.again = task;
      return this.running;
    }
    this.running = task().finally(() => {
      this.running = undefined;
      const next = this.again;
      this.again = undefined;
      if (next !== undefined) void this.serialize(next);
    });
    return this.running;
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.again = undefined;
    this.follow([]);
    await this.running;
  }
}
