/**
 * Not a server: the child process of bench/log-line.ts. Writes request lines through
 * writeRequestLine to the service's own stdout destination (batched, as in production; the
 * parent points stdout at /dev/null), in interleaved rounds: by hand on createLogger's logger,
 * and through pino on a child of it (same options, same destination; writeRequestLine gives
 * every child to pino). Prints each round's nanoseconds per line as one JSON line on stderr.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import bs58 from 'bs58';
import {
  createLogger,
  flushLogs,
  type Logger,
  type RequestLine,
  writeRequestLine,
} from '../../src/server/logger.js';

const LINES = Number(process.env.LOG_LINES ?? 50_000);
const ROUNDS = Number(process.env.LOG_ROUNDS ?? 31);
const WARMUP_ROUNDS = 3;

/** Distinct lines, cycled: the 402 offers of the unpaid lane, one new request id each. */
const SAMPLES: readonly RequestLine[] = Array.from({ length: 1024 }, (_, i) => ({
  requestId: randomUUID(),
  method: 'GET',
  route: '/scan/token/:mint',
  path: `/scan/token/${bs58.encode(randomBytes(32))}`,
  status: 402,
  ms: (i % 400) / 100,
  extra: {},
}));

const byHand = createLogger('info');
const throughPino = byHand.child({});
const gc = (globalThis as { gc?: () => void }).gc;

/** Nanoseconds per line of `lines` request lines written on `log`. */
function round(log: Logger, lines: number): number {
  // Each round starts with an empty young generation: the other path's garbage is not its cost.
  gc?.();
  const started = performance.now();
  for (let i = 0; i < lines; i++) writeRequestLine(log, SAMPLES[i & 1023]!);
  return ((performance.now() - started) * 1e6) / lines;
}

for (let i = 0; i < WARMUP_ROUNDS; i++) {
  round(byHand, LINES);
  round(throughPino, LINES);
}
const rounds: { byHand: number; throughPino: number }[] = [];
for (let i = 0; i < ROUNDS; i++) {
  // Alternate the order, so neither path always runs just after the other.
  if (i % 2 === 0) {
    const hand = round(byHand, LINES);
    rounds.push({ byHand: hand, throughPino: round(throughPino, LINES) });
  } else {
    const viaPino = round(throughPino, LINES);
    rounds.push({ byHand: round(byHand, LINES), throughPino: viaPino });
  }
}
flushLogs(byHand);
process.stderr.write(`${JSON.stringify({ gc: gc !== undefined, rounds })}\n`);
