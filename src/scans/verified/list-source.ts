/**
 * The registry a scan uses on mainnet: the bundled tokens plus a published verified list
 * (Jupiter's by default), refreshed periodically. The last good copy is kept in STATE_DIR, so a
 * restart while the list cannot be read starts from it; a list that cannot be read, is malformed,
 * too large or too late never replaces the copy in use, and the evidence says which copy that is.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessage } from '../../errors.js';
import { writeWhole } from '../../write-whole.js';
import { bundledEntries, bundledRegistry } from './bundled.js';
import { parseList, parseListText } from './list-format.js';
import { type ReadLimits, readList } from './list-read.js';
import type { TokenNames, VerifiedRegistry } from './model.js';
import { buildRegistry, describedAs } from './registry.js';

/** The last good copy, in STATE_DIR. */
export const LAST_GOOD_FILE = 'verified-tokens.json';
const LAST_GOOD_FORMAT = 'solana-risk-scan/verified-list@1';
export const DEFAULT_LIST_LIMITS = { maxBytes: 32 * 1024 * 1024, timeoutMs: 10_000 } as const;

interface GoodCopy {
  readonly source: string;
  readonly readAt: string;
  readonly tokens: readonly TokenNames[];
}

export interface VerifiedListOptions {
  /** An http(s) URL, a file path or a file: URL. */
  readonly source: string;
  readonly stateDir: string;
  readonly limits?: Partial<Omit<ReadLimits, 'signal'>>;
  readonly now?: () => number;
  readonly log?: {
    warn(fields: object, message: string): void;
    info(fields: object, message: string): void;
  };
}

const registryOf = (good: GoodCopy, copy: 'refreshed' | 'last-good', note: string) =>
  buildRegistry(bundledEntries(), good.tokens, { copy, source: good.source, as_of: good.readAt, note });

/** The copy kept in STATE_DIR, checked as a fresh list would be; null when absent or unreadable. */
async function readLastGood(stateDir: string): Promise<GoodCopy | null> {
  try {
    const stored = JSON.parse(await readFile(join(stateDir, LAST_GOOD_FILE), 'utf8'));
    if (stored?.format !== LAST_GOOD_FORMAT || typeof stored.source !== 'string') return null;
    const parsed = parseList({ tokens: stored.tokens });
    return parsed.ok
      ? { source: stored.source, readAt: String(stored.read_at), tokens: parsed.tokens }
      : null;
  } catch {
    return null;
  }
}

export class VerifiedTokenList {
  private registry: VerifiedRegistry = bundledRegistry();
  private good: GoodCopy | null = null;
  private inFlight: Promise<boolean> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly stopping = new AbortController();

  constructor(private readonly options: VerifiedListOptions) {}

  /** The registry for the next scan: never waits for a refresh. */
  current(): VerifiedRegistry {
    return this.registry;
  }

  /** Takes up the copy kept in STATE_DIR, if any (before the first refresh). */
  async load(): Promise<void> {
    const stored = await readLastGood(this.options.stateDir);
    if (stored === null || this.good !== null) return;
    this.good = stored;
    this.registry = registryOf(
      stored,
      'last-good',
      'the copy kept in STATE_DIR, until the list is read again',
    );
  }

  /** Reads the list once (one read at a time); true when it replaced the copy in use. */
  refresh(): Promise<boolean> {
    this.inFlight ??= this.readOnce().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  /** Loads the kept copy, waits for a first read (bounded by its time cap), then reads every `everyMs`. */
  async start(everyMs: number): Promise<void> {
    await this.load();
    await this.refresh();
    if (this.stopping.signal.aborted) return;
    this.timer = setInterval(() => void this.refresh(), everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.stopping.abort();
  }

  private async readOnce(): Promise<boolean> {
    const { source } = this.options;
    const limits = { ...DEFAULT_LIST_LIMITS, ...this.options.limits, signal: this.stopping.signal };
    const read = await readList(source, limits);
    const parsed = read.ok ? parseListText(read.text) : read;
    if (!parsed.ok) {
      this.keep(parsed.reason);
      return false;
    }
    // A list that lost most of its entries is more likely broken than pruned.
    if (this.good !== null && parsed.tokens.length < this.good.tokens.length / 2) {
      this.keep(
        `it lists ${parsed.tokens.length} tokens, less than half the ${this.good.tokens.length} of the last good copy`,
      );
      return false;
    }
    const readAt = new Date((this.options.now ?? Date.now)()).toISOString();
    this.good = { source, readAt, tokens: parsed.tokens };
    this.registry = registryOf(this.good, 'refreshed', 'read at the latest refresh');
    this.options.log?.info(
      { source, tokens: parsed.tokens.length, skipped: parsed.skipped },
      'verified tokens read',
    );
    await this.save(this.good);
    return true;
  }

  /** A failed read: the copy in use stays, and says why it is the one in use. */
  private keep(reason: string): void {
    const { source } = this.options;
    this.options.log?.warn({ source, reason }, 'verified token list not read; the copy in use is kept');
    const at = new Date((this.options.now ?? Date.now)()).toISOString();
    if (this.good === null) {
      this.registry = describedAs(bundledRegistry(), {
        ...bundledRegistry().copy,
        note: `no list could be read (${source} at ${at}: ${reason}): the bundled registry is used`,
      });
      return;
    }
    this.registry = describedAs(this.registry, {
      copy: 'last-good',
      source: this.good.source,
      as_of: this.good.readAt,
      note: `the latest refresh failed (${at}: ${reason}): the last good copy is used`,
    });
  }

  private async save(good: GoodCopy): Promise<void> {
    const { stateDir } = this.options;
    const text = JSON.stringify({
      format: LAST_GOOD_FORMAT,
      source: good.source,
      read_at: good.readAt,
      tokens: good.tokens,
    });
    try {
      await mkdir(stateDir, { recursive: true });
      await writeWhole(join(stateDir, LAST_GOOD_FILE), text);
    } catch (e) {
      this.options.log?.warn(
        { stateDir, reason: errorMessage(e) },
        'the verified token list could not be kept',
      );
    }
  }
}
