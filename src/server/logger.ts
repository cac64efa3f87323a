/** Structured JSON logs (pino): one line per request, never a payment header in full. */
import { tracingChannel } from 'node:diagnostics_channel';
import { pino } from 'pino';

export type Logger = pino.Logger;

/** Most bytes held back before they are handed to stdout. */
const BATCH_BYTES = 64 * 1024;

/** Longest a logged line waits before it is handed to stdout. */
const FLUSH_DELAY_MS = 10;

/**
 * Gathers log lines for up to 10 ms (or 64 KiB) and writes them to stdout in one synchronous
 * write (sonic-boom, which finishes partial writes and waits out EAGAIN). pino writes each line
 * as it is logged; under load that made every request pay for a write. Each line is encoded
 * into the batch's buffer as it arrives, so it is flattened and encoded once, while fresh,
 * rather than held as a string, joined and encoded again when written.
 *
 * Synchronous, as pino's own default destination is: an asynchronous write still in flight at
 * exit could be cut short while the lines after it were written, which a test caught as a
 * broken line. Lines keep their order; nothing is dropped; what is held is written at exit.
 */
class BatchedStdout {
  /** Reused: a synchronous write is done with it by the time write() returns. */
  private readonly batch = Buffer.allocUnsafe(BATCH_BYTES);
  private used = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly target = pino.destination({ dest: 1, sync: true, minLength: 0, contentMode: 'buffer' });
  private readonly drain = () => {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.used === 0) return;
    const held = this.batch.subarray(0, this.used);
    this.used = 0;
    this.writeBytes(held);
  };

  constructor() {
    // pino flushes its own stdout stream at exit; the lines still held here must go first.
    process.once('exit', () => this.flushSync());
    // A stdout that is gone (EPIPE) loses the logs, not the process: without a listener the
    // stream's 'error' would be thrown from a batch's timer.
    this.target.on('error', () => {});
  }

  /** sonic-boom in buffer mode takes bytes; its typings only know strings. */
  private writeBytes(bytes: Buffer): void {
    (this.target.write as unknown as (data: Buffer) => boolean).call(this.target, bytes);
  }

  write(line: string): boolean {
    // A line of n UTF-16 units is at most 3n bytes of UTF-8.
    if (line.length * 3 > BATCH_BYTES - this.used) {
      this.drain();
      if (line.length * 3 > BATCH_BYTES) {
        this.writeBytes(Buffer.from(line));
        return true;
      }
    }
    this.used += this.batch.write(line, this.used);
    if (this.timer === null) this.timer = setTimeout(this.drain, FLUSH_DELAY_MS).unref();
    return true;
  }

  flush(callback?: (err?: Error) => void): void {
    this.drain();
    this.target.flush(callback);
  }

  flushSync(): void {
    this.drain();
    try {
      this.target.flushSync();
    } catch {
      // stdout not open yet, or already closed: nothing more can be written.
    }
  }
}

/** One per process: every logger writing to stdout shares it (and its exit hook). */
let stdout: BatchedStdout | undefined;

function sharedStdout(): BatchedStdout {
  stdout ??= new BatchedStdout();
  return stdout;
}

/** The one field createLogger adds to every line. */
const BASE = { service: 'solana-risk-scan' } as const;

/**
 * The loggers whose request line is written by hand, each with its destination: only those
 * createLogger made, since their options (a level and BASE) are all the hand-written line
 * reproduces. Any other logger, one made elsewhere whatever its options, or a child (a new
 * object, never in this map), writes the line through pino.
 */
const handWritten = new WeakMap<Logger, pino.DestinationStream>();

/** A logger writing to `destination`, or to stdout in batches. Call `flushLogs` before exiting. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const stream = destination ?? sharedStdout();
  const log = pino({ level, base: BASE }, stream);
  // A destination that routes lines by level (pino.multistream) reads the level pino records
  // on it before each write; a line written past pino would be routed by a stale one.
  if ((stream as pino.DestinationStreamWithMetadata)[pino.symbols.needsMetadataGsym] !== true) {
    handWritten.set(log, stream);
  }
  return log;
}

/** The fields of a request's log line. */
export interface RequestLine {
  readonly requestId: string;
  readonly method: string;
  readonly route: string | null;
  readonly path: string;
  readonly status: number;
  readonly ms: number;
  /** More fields (payment fingerprint, scan outcome…), written after the fixed ones. */
  readonly extra: Readonly<Record<string, unknown>>;
  /**
   * True when the writer knows route and path to be plain text (see isPlainText), as the unpaid
   * lane does of the paths it answers: they are then not tested again.
   */
  readonly plainText?: boolean;
}

const INFO = 30;

/**
 * pino traces its serialisation on this channel; a subscriber (an APM agent, say) would miss
 * lines written past pino, so while there is one every line goes through pino.
 */
const pinoSerialisation = tracingChannel('pino_asJson');

/**
 * Writes a request's log line: the JSON line `log.info({ req_id, method, route, path, status,
 * ms, ...extra }, 'request')` writes. It is written once per request on the service's cheapest
 * paths, so when nothing in it needs pino (a logger made by createLogger, no extra fields, no
 * one tracing pino) it is serialised here, in pino's exact format: tests hold the two together
 * byte for byte, and `BENCH_ONLY=log-line npm run bench` measures what it saves. Everything
 * else goes to pino, which applies whatever the logger is configured with (redaction,
 * formatters, serializers, mixin, keys, levels, timestamps, hooks).
 */
export function writeRequestLine(log: Logger, line: RequestLine): void {
  const destination = handWritten.get(log);
  if (
    destination !== undefined &&
    !hasKeys(line.extra) &&
    (line.plainText === true ||
      (isPlainText(line.path) && (line.route === null || isPlainText(line.route)))) &&
    !pinoSerialisation.hasSubscribers
  ) {
    if (log.levelVal > INFO) return;
    // chindings are read per line, as pino does: setBindings() replaces them. The request id (a
    // UUID made here) and the method (an HTTP token: node and fetch refuse any other) never need
    // escaping; nor do a plain route and path.
    const chindings = (log as unknown as Record<symbol, string>)[pino.symbols.chindingsSym];
    destination.write(
      `{"level":${INFO},"time":${timeText()}${chindings},"req_id":"${line.requestId}","method":"${line.method}","route":${line.route === null ? 'null' : `"${line.route}"`},"path":"${line.path}","status":${line.status},"ms":${line.ms},"msg":"request"}\n`,
    );
    return;
  }
  // Extra fields come with paid requests, off the cheap paths: pino also omits undefined values
  // and copes with bigints and cycles, which JSON.stringify does not.
  const { requestId, method, route, path, status, ms } = line;
  log.info({ req_id: requestId, method, route, path, status, ms, ...line.extra }, 'request');
}

/**
 * Text every JSON writer quotes as it is: printable ASCII but `"` and `\\`, short enough that pino
 * quotes it by hand too (it hands longer text to JSON.stringify). Any other path or route (rare)
 * goes through pino, whose escaping of the rest differs by Node version.
 */
const PLAIN_TEXT = /^[\x20\x21\x23-\x5b\x5d-\x7e]{0,100}$/;

export function isPlainText(text: string): boolean {
  return PLAIN_TEXT.test(text);
}

let lastTime = 0;
let lastTimeText = '0';

/** Date.now() as text, converted once per millisecond (many lines share one under load). */
function timeText(): string {
  const now = Date.now();
  if (now !== lastTime) {
    lastTime = now;
    lastTimeText = String(now);
  }
  return lastTimeText;
}

function hasKeys(value: Readonly<Record<string, unknown>>): boolean {
  for (const _ in value) return true;
  return false;
}

export function flushLogs(log: Logger): void {
  try {
    log.flush();
  } catch {
    // Nothing left to flush, or stdout already closed: nothing to do at exit.
  }
  stdout?.flushSync();
}
