/**
 * The request log line, written by hand (src/server/logger.ts) against the same line written
 * through pino: same fields, same options, same destination (the service's batched stdout,
 * pointed at /dev/null), in one process with interleaved rounds, on the servers' CPU when the
 * machine allows pinning. Reported per path: nanoseconds per line, and the median of per-round
 * ratios to pino. The hand-written line is kept only while it shows a clear gain here.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PINNING } from './lib/processes.js';
import { median, printTable } from './lib/report.js';

const CHILD = fileURLToPath(new URL('./servers/log-lines.ts', import.meta.url));

interface Round {
  readonly byHand: number;
  readonly throughPino: number;
}

export interface LogLineResult {
  readonly lines: number;
  readonly rounds: number;
  readonly byHandNsPerLine: number;
  readonly throughPinoNsPerLine: number;
  /** Median over rounds of (by hand ÷ through pino in the same round). */
  readonly ratio: number;
  readonly ratioMin: number;
  readonly ratioMax: number;
  /** Median over rounds of (through pino − by hand), in ns per line. */
  readonly savedNsPerLine: number;
}

function runChild(lines: number, rounds: number): Promise<{ gc: boolean; rounds: Round[] }> {
  const args = ['--expose-gc', '--import', 'tsx', CHILD];
  const [command, argv] =
    PINNING === null
      ? [process.execPath, args]
      : ['taskset', ['-c', String(PINNING.server), process.execPath, ...args]];
  // stdout is /dev/null: the lines are written as in production, and read by nobody.
  const child = spawn(command, argv, {
    env: { ...process.env, LOG_LINES: String(lines), LOG_ROUNDS: String(rounds) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`log-line bench exited with ${code}: ${err}`));
      resolve(JSON.parse(err.trim().split('\n').at(-1)!));
    });
  });
}

export async function runLogLineBench(options: { lines: number; rounds: number }): Promise<LogLineResult> {
  const measured = await runChild(options.lines, options.rounds);
  const ratios = measured.rounds.map((r) => r.byHand / r.throughPino);
  const result: LogLineResult = {
    lines: options.lines,
    rounds: measured.rounds.length,
    byHandNsPerLine: median(measured.rounds.map((r) => r.byHand)),
    throughPinoNsPerLine: median(measured.rounds.map((r) => r.throughPino)),
    ratio: median(ratios),
    ratioMin: Math.min(...ratios),
    ratioMax: Math.max(...ratios),
    savedNsPerLine: median(measured.rounds.map((r) => r.throughPino - r.byHand)),
  };
  const setup = PINNING ? `on CPU ${PINNING.server}` : 'not pinned (one CPU or no taskset)';
  printTable(
    `Request log line: by hand vs through pino, to the batched stdout (/dev/null), ${result.rounds} interleaved rounds of ${options.lines} lines, ${setup}${measured.gc ? '' : ', no --expose-gc'}`,
    ['path', 'ns/line (median)', 'ratio to pino (median)', 'ratio range', 'saved ns/line'],
    [
      [
        'by hand',
        result.byHandNsPerLine.toFixed(0),
        result.ratio.toFixed(2),
        `${result.ratioMin.toFixed(2)}–${result.ratioMax.toFixed(2)}`,
        result.savedNsPerLine.toFixed(0),
      ],
      ['through pino', result.throughPinoNsPerLine.toFixed(0), '1.00', '', ''],
    ],
  );
  return result;
}
