/**
 * What re-assesses the active watches. Each watched subject (kind + address) is one group, however
 * many watches it has: its accounts are followed once (account-feed.ts), a burst of notifications
 * gives one fresh re-scan after a short debounce, and that one scan is compared with every watch's
 * latest verdict. A periodic check re-scans the subjects least recently scanned, a fixed number per
 * interval (the budget), as the safety net for what no subscription sees.
 */
import type { ScanResult } from '../../contract/schemas.js';
import type { AlertPayload, Watch, WatchKind } from '../model.js';
import type { AccountFeed } from './account-feed.js';
import { alertPayload, SCORE_EPSILON, verdictChange } from './change.js';
import { followedAccounts } from './followed.js';
import type { RescanReason, TriggerMetrics } from './metrics.js';
import { pause } from './pause.js';
import { Subject } from './subject.js';

/** A scan of the subject read now from the chain (never from the result cache). */
export type FreshScan = (kind: WatchKind, subject: string) => Promise<ScanResult>;

export interface WatchTriggersOptions {
  /** The active watches (WatchState.active), read at every periodic check. */
  readonly watches: () => Promise<readonly Watch[]>;
  readonly rescan: FreshScan;
  /** Where a change goes (WatchState.recordChange); a throw leaves the watch's verdict as it was. */
  readonly onChange: (watch: Watch, payload: AlertPayload) => Promise<void>;
  /** Account subscriptions; null when the RPC has no WebSocket (periodic re-scans only). */
  readonly feed: AccountFeed | null;
  /** Subjects the periodic check re-scans per interval at most. */
  readonly rescanBudget: number;
  readonly debounceMs: number;
  /** Re-scans running at once at most, whatever asked for them. */
  readonly maxConcurrentScans?: number;
  readonly metrics?: TriggerMetrics;
  readonly epsilon?: number;
  /** A re-scan or a change that could not be handed over (logged; the next check tries again). */
  readonly onError?: (error: unknown, watchKey: string) => void;
}

export class WatchTriggers {
  private readonly subjects = new Map<string, Subject>();
  private readonly slots: Slots;
  private syncing: Promise<void> | undefined;
  /** A sync asked for while one ran: that one may have read the watches before the news. */
  private syncAgain: Promise<void> | undefined;
  private checking: Promise<void> | undefined;
  private interval: NodeJS.Timeout | undefined;
  private scans = 0;
  /** Wait between two re-scans of a periodic check (0 until `start` spreads the budget over the interval). */
  private paceMs = 0;
  private readonly stopped = new AbortController();

  constructor(private readonly options: WatchTriggersOptions) {
    this.slots = new Slots(options.maxConcurrentScans ?? 4);
  }

  /** Accounts followed now, over all subjects (one subscription each). */
  get followed(): number {
    return new Set([...this.subjects.values()].flatMap((s) => s.accounts())).size;
  }

  /** Subjects followed now (however many watches each has). */
  get subjectCount(): number {
    return this.subjects.size;
  }

  /**
   * Takes the active watches: follows the subjects of new ones, lets go of ended ones. Asked while
   * one runs, it runs once more after it (for all who asked meanwhile), so that a watch created
   * just before the call is taken even if the running one read the watches before it was.
   * Nothing once stopped: a sync asked for late (a watch paid for during shutdown) opens no
   * subscription.
   */
  sync(): Promise<void> {
    if (this.stopped.signal.aborted) return Promise.resolve();
    if (this.syncing !== undefined) {
      const again = () => {
        this.syncAgain = undefined;
        return this.sync();
      };
      this.syncAgain ??= this.syncing.then(again, again);
      return this.syncAgain;
    }
    this.syncing = this.syncNow().finally(() => {
      this.syncing = undefined;
    });
    return this.syncing;
  }

  /** The periodic check: sync, then re-scan up to the budget of subjects, least recently scanned first. Nothing once stopped. */
  check(): Promise<void> {
    if (this.stopped.signal.aborted) return Promise.resolve();
    this.checking ??= this.checkNow().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private async checkNow(): Promise<void> {
    try {
      await this.sync();
      const due = [...this.subjects.values()]
        .sort((a, b) => a.lastScan - b.lastScan)
        .slice(0, this.options.rescanBudget);
      // One at a time, spread over the interval once started: the check is a background chore,
      // and a burst of scans would take the event loop from paid calls (bench/watch-triggers.ts).
      for (const [i, subject] of due.entries()) {
        if (i > 0 && this.paceMs > 0) await pause(this.paceMs, this.stopped.signal);
        if (this.stopped.signal.aborted) return;
        await this.rescan(subject, 'periodic');
      }
    } catch (error) {
      this.options.onError?.(error, 'periodic check');
    }
  }

  /**
   * Runs `check` now and every `intervalMs` until `stop`, its re-scans spread over the interval
   * (one every `intervalMs / rescanBudget`); a check still running when the next is due lets it go.
   * Once stopped, triggers do not start again.
   */
  start(intervalMs: number): void {
    if (this.stopped.signal.aborted) return;
    this.paceMs = intervalMs / this.options.rescanBudget;
    void this.check();
    this.interval = setInterval(() => void this.check(), intervalMs);
    this.interval.unref();
  }

  /** Ends the periodic check and every subscription, for good (sync, check and start then do nothing). */
  async stop(): Promise<void> {
    this.stopped.abort();
    clearInterval(this.interval);
    await this.checking;
    // A sync that failed (a store down at shutdown) is its asker's to report: the stop goes on.
    await this.syncing?.catch(() => undefined);
    await this.syncAgain?.catch(() => undefined);
    const subjects = [...this.subjects.values()];
    this.subjects.clear();
    await Promise.all(subjects.map((s) => s.close()));
  }

  private async syncNow(): Promise<void> {
    const bySubject = new Map<string, Watch[]>();
    for (const watch of await this.options.watches()) {
      const key = `${watch.kind}:${watch.subject}`;
      bySubject.set(key, [...(bySubject.get(key) ?? []), watch]);
    }
    for (const [key, subject] of this.subjects) {
      if (bySubject.has(key)) continue;
      this.subjects.delete(key);
      await subject.close();
    }
    for (const [key, watches] of bySubject) {
      // stop() waits for this sync, then closes what it followed; it must not follow more after.
      if (this.stopped.signal.aborted) return;
      let subject = this.subjects.get(key);
      if (subject === undefined) {
        const first = watches[0]!;
        // A watch whose kept verdict cannot be read costs its own subject, not the sync of all.
        const accounts = await followedAccounts(first.kind, first.subject, first.latest).catch(
          (e: unknown) => {
            this.options.onError?.(e, key);
            return null;
          },
        );
        if (accounts === null) continue;
        subject = new Subject(first.kind, first.subject, this.options.feed, () => this.notified(key));
        this.subjects.set(key, subject);
        subject.follow(accounts);
      }
      subject.setWatches(watches);
    }
  }

  private notified(key: string): void {
    const subject = this.subjects.get(key);
    if (subject === undefined) return;
    this.options.metrics?.notification();
    subject.debounce(this.options.debounceMs, () => void this.rescan(subject, 'notification'));
  }

  /**
   * One fresh scan of the subject, compared with each of its watches; queued behind one running.
   * Never rejects: a notification's re-scan is not awaited, and a failure there (a stored verdict
   * that cannot be compared, say) must be reported, not end the process.
   */
  private rescan(subject: Subject, reason: RescanReason): Promise<void> {
    return subject.serialize(() =>
      this.rescanNow(subject, reason).catch((error: unknown) => this.options.onError?.(error, subject.key)),
    );
  }

  private async rescanNow(subject: Subject, reason: RescanReason): Promise<void> {
    subject.lastScan = ++this.scans;
    const { kind } = subject;
    let result: ScanResult;
    try {
      result = await this.slots.run(() => this.options.rescan(kind, subject.address));
    } catch (error) {
      this.options.metrics?.rescan(kind, reason, 'failed');
      this.options.onError?.(error, subject.key);
      return;
    }
    this.options.metrics?.rescan(kind, reason, 'ok');
    for (const watch of subject.watches()) await this.compare(subject, watch, result);
    if (this.subjects.get(subject.key) === subject) {
      subject.follow(await followedAccounts(kind, subject.address, result));
    }
  }

  private async compare(subject: Subject, watch: Watch, result: ScanResult): Promise<void> {
    const changed = verdictChange(watch.latest, result, this.options.epsilon ?? SCORE_EPSILON);
    if (changed === null) return;
    try {
      await this.options.onChange(watch, alertPayload(watch, changed, result));
    } catch (error) {
      this.options.onError?.(error, subject.key);
      return;
    }
    this.options.metrics?.change(watch.kind);
    subject.recorded(watch, result);
  }
}

/** At most `size` tasks at once; the others wait their turn. */
class Slots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    // A finishing task hands its slot straight to the next in line, so none can slip in between.
    if (this.running < this.size) this.running += 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
