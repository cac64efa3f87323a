/**
 * Reads shared by the scans of one batch. Identical reads are sent once and their answer handed
 * to every scan that asks; account reads asked in the same turn of the event loop travel in one
 * `getMultipleAccounts` of up to 100 keys. Scans of a batch move in step (each round's answers
 * arrive together, so the next round's reads are asked together), so a batch takes about the
 * round trips of one scan.
 *
 * A merger is made per batch and dropped with it: an answer is reused only inside the batch that
 * read it, which sees one view of the chain, and never served stale to a later call. A read that
 * failed is forgotten, so a later scan asks again as its single scan would.
 *
 * A merged read is sent with the batch's signal (one caller giving up must not cancel it for the
 * others), carrying the read bounds of every caller (deadline.ts): time it waits in a queue below
 * is taken from none of them. Each caller still stops waiting at its own signal.
 */
import type { RpcTransport } from '@solana/kit';
import { carryBudgets, whileQueued } from '../deadline.js';

/** The most keys a `getMultipleAccounts` may ask for (the RPC's own limit). */
export const MAX_ACCOUNTS_PER_READ = 100;

/**
 * Reads whose answer holds for the length of a batch; anything else (a blockhash, a simulation,
 * a write) is sent as it comes. The epoch is among them: a batch is one view of the chain.
 */
const SHARED_READS: ReadonlySet<string> = new Set([
  'getAccountInfo',
  'getMultipleAccounts',
  'getTransaction',
  'getSignaturesForAddress',
  'getTokenLargestAccounts',
  'getTokenAccountsByOwner',
  'getProgramAccounts',
  'getTokenSupply',
  'getBalance',
  'getSignatureStatuses',
  'getEpochInfo',
]);

interface Payload {
  readonly jsonrpc: '2.0';
  readonly id: string | number;
  readonly method: string;
  readonly params?: readonly unknown[];
}

interface Answer {
  readonly jsonrpc?: '2.0';
  readonly id?: unknown;
  readonly result?: unknown;
  readonly error?: unknown;
}

type Request = Parameters<RpcTransport>[0];

/** One account as a merged read saw it: its value and the context of the answer it came in. */
type AccountRead = { readonly context: unknown; readonly value: unknown } | { readonly error: unknown };

/** Account reads of one encoding waiting for this turn's merged read. */
interface PendingGroup {
  readonly config: unknown;
  readonly addresses: Map<string, (read: Promise<AccountRead>) => void>;
  readonly callers: Set<AbortSignal | undefined>;
}

export interface ReadMergerOptions {
  /** Aborted when the batch ends: reads still in flight for it are dropped. */
  readonly signal?: AbortSignal;
  /**
   * Calls in flight at most (none by default): for an RPC that answers one call at a time (the
   * sandbox's, in the service's own process), where a wave of two hundred would make the last
   * read wait for all the others. A call waiting for its turn is queued (not taken from bounds).
   */
  readonly maxInFlight?: number;
}

export interface ReadMerger {
  readonly transport: RpcTransport;
  /** Calls sent to the RPC so far, and calls the scans asked for. */
  counts(): { readonly sent: number; readonly asked: number };
}

export function createReadMerger(rpcTransport: RpcTransport, options: ReadMergerOptions = {}): ReadMerger {
  const batchSignal = options.signal;
  const inner = gated(rpcTransport, options.maxInFlight);
  const answers = new Map<string, Promise<Answer>>();
  const counts = { sent: 0, asked: 0 };
  let nextId = 0;

  const send = async (
    method: string,
    params: readonly unknown[],
    callers: Iterable<AbortSignal | undefined>,
  ) => {
    counts.sent += 1;
    const payload: Payload = { jsonrpc: '2.0', id: `merged-${++nextId}`, method, params };
    return (await inner({ payload, signal: signalFor(batchSignal, callers) } as Request)) as Answer;
  };
  const accounts = accountReads(send);

  const sharedAnswer = (payload: Payload, caller: AbortSignal | undefined): Promise<Answer> => {
    const key = `${payload.method} ${keyOf(payload.params ?? [])}`;
    const known = answers.get(key);
    if (known !== undefined) return known;
    const answer = mergeable(payload)
      ? accounts.answer(payload, caller)
      : send(payload.method, payload.params ?? [], [caller]);
    remember(answers, key, answer, (a) => a.error !== undefined);
    return answer;
  };

  const transport = (async (request: Request) => {
    const payload = request.payload as Payload;
    counts.asked += 1;
    if (Array.isArray(payload) || !SHARED_READS.has(payload?.method)) {
      counts.sent += 1;
      return inner(request);
    }
    const answer = await untilAborted(sharedAnswer(payload, request.signal), request.signal);
    return { ...answer, id: payload.id };
  }) as RpcTransport;

  return { transport, counts: () => ({ ...counts }) };
}

type Send = (
  method: string,
  params: readonly unknown[],
  callers: Iterable<AbortSignal | undefined>,
) => Promise<Answer>;

/** Account reads, each kept for the batch, those of one turn merged into `getMultipleAccounts` by encoding. */
function accountReads(send: Send) {
  const accounts = new Map<string, Promise<AccountRead>>();
  const pending = new Map<string, PendingGroup>();

  const flush = () => {
    const groups = [...pending.values()];
    pending.clear();
    for (const group of groups) sendGroup(group, send);
  };

  const readAccount = (address: string, config: unknown, caller: AbortSignal | undefined) => {
    const configKey = keyOf(config);
    const key = `${configKey} ${address}`;
    const known = accounts.get(key);
    if (known !== undefined) return known;
    if (pending.size === 0) setImmediate(flush);
    let group = pending.get(configKey);
    if (group === undefined) {
      group = { config, addresses: new Map(), callers: new Set() };
      pending.set(configKey, group);
    }
    group.callers.add(caller);
    const waiting = group.addresses;
    const read = new Promise<AccountRead>((resolve, reject) => {
      waiting.set(address, (reply) => reply.then(resolve, reject));
    });
    remember(accounts, key, read, (r) => 'error' in r);
    return read;
  };

  const answer = async (payload: Payload, caller: AbortSignal | undefined): Promise<Answer> => {
    const single = payload.method === 'getAccountInfo';
    const [target, config] = payload.params ?? [];
    const addresses = (single ? [target] : target) as string[];
    const reads = await Promise.all(addresses.map((address) => readAccount(address, config, caller)));
    const failed = reads.find((r) => 'error' in r);
    if (failed !== undefined) return { jsonrpc: '2.0', error: (failed as { error: unknown }).error };
    const values = reads.map((r) => (r as { value: unknown }).value);
    const context = (reads[0] as { context: unknown } | undefined)?.context;
    return { jsonrpc: '2.0', result: { context, value: single ? values[0] : values } };
  };

  return { answer };
}

/** One group's addresses in reads of at most 100, each address answered from its read. */
function sendGroup(group: PendingGroup, send: Send): void {
  const addresses = [...group.addresses.keys()];
  for (let i = 0; i < addresses.length; i += MAX_ACCOUNTS_PER_READ) {
    const chunk = addresses.slice(i, i + MAX_ACCOUNTS_PER_READ);
    const params = group.config === undefined ? [chunk] : [chunk, group.config];
    const reply = send('getMultipleAccounts', params, group.callers);
    chunk.forEach((address, index) => {
      group.addresses.get(address)!(reply.then((answer) => accountOf(answer, index)));
    });
  }
}

/** The signal a merged read is sent with: the batch's, carrying its callers' read bounds. */
function signalFor(batchSignal: AbortSignal | undefined, callers: Iterable<AbortSignal | undefined>) {
  const signal = batchSignal ? AbortSignal.any([batchSignal]) : new AbortController().signal;
  carryBudgets(signal, [...callers]);
  return signal;
}

/** `transport` with at most `max` calls in flight, the others queued in order. */
function gated(transport: RpcTransport, max: number | undefined): RpcTransport {
  if (max === undefined) return transport;
  let active = 0;
  const waiting: (() => void)[] = [];
  const turn = () =>
    new Promise<void>((resolve) => {
      if (active < max) {
        active += 1;
        resolve();
      } else waiting.push(resolve);
    });
  return (async (request: Request) => {
    await whileQueued(request.signal, turn);
    try {
      return await transport(request);
    } finally {
      // The turn passes straight to the next waiter, if any.
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  }) as RpcTransport;
}

/** Account reads merge when they state their encoding (an unstated one defaults per method). */
function mergeable(payload: Payload): boolean {
  if (payload.method !== 'getAccountInfo' && payload.method !== 'getMultipleAccounts') return false;
  const [target, config] = payload.params ?? [];
  const addresses = payload.method === 'getAccountInfo' ? [target] : target;
  if (!Array.isArray(addresses) || !addresses.every((a) => typeof a === 'string')) return false;
  return typeof (config as { encoding?: unknown } | undefined)?.encoding === 'string';
}

function accountOf(answer: Answer, index: number): AccountRead {
  if (answer.error !== undefined) return { error: answer.error };
  const result = answer.result as { context?: unknown; value?: unknown[] } | undefined;
  if (!Array.isArray(result?.value))
    return { error: { code: -32603, message: 'malformed getMultipleAccounts answer' } };
  return { context: result.context, value: result.value[index] ?? null };
}

/** Keeps a read for the batch; one that failed is forgotten, so a later scan asks again. */
function remember<T>(
  memo: Map<string, Promise<T>>,
  key: string,
  read: Promise<T>,
  failed: (t: T) => boolean,
) {
  memo.set(key, read);
  read.then(
    (value) => {
      if (failed(value)) memo.delete(key);
    },
    () => memo.delete(key),
  );
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A key equal for equal values whatever the order of their fields. */
function keyOf(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, v: unknown) => {
    if (typeof v === 'bigint') return `${v}n`;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    return v;
  });
}
