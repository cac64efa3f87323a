/**
 * How a `risk-scan` command ends when its environment fails it: one line on stderr that says
 * what went wrong and what to do, and an exit code from EXIT. The wording of every such line
 * lives here. `--verbose` adds the cause chain after the line, for bug reports.
 */

import { networkReason } from '@solana-risk-scan/client/errors';
import { describeWordedFailure, WordedFailure } from '../client/failures.js';
import type { Config } from '../config.js';
import { ConfigError } from '../config.js';
import { AccountLoadError } from '../sandbox/loaded-accounts.js';
import { SigningKeyError } from '../state/signing-key.js';
import { describeStartFailure } from './start-failure.js';

/** The exit codes of every command (README, "Exit codes"). */
export const EXIT = {
  /** Done: the service stopped on a signal, or `call` got its 200. */
  ok: 0,
  /** The environment failed the command: a start that cannot listen or keep state, an API or RPC
   * that cannot be reached, a payment that cannot be made or was refused, an answer other than 200. */
  failed: 1,
  /** The command line or the configuration is wrong: an option, a variable, a keypair file. */
  usage: 2,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

const usage = (message: string, cause?: unknown) => new WordedFailure(message, 'usage', { cause });
const failed = (message: string, cause?: unknown) => new WordedFailure(message, 'failed', { cause });

// ---- every command ---------------------------------------------------------------------------

/**
 * The line and exit code an error ends a command in, or null when it is not one this module
 * knows (a bug: the caller says so in one line and `--verbose` shows the rest).
 */
export function describeFailure(e: unknown, config: Config | null): { line: string; code: ExitCode } | null {
  const worded = describeWordedFailure(e);
  if (worded !== null) return { line: worded.line, code: EXIT[worded.kind] };
  if (e instanceof ConfigError || e instanceof AccountLoadError || e instanceof SigningKeyError)
    return { line: e.message, code: EXIT.usage };
  if (config !== null) {
    const start = describeStartFailure(e, config);
    if (start !== null) return { line: start, code: EXIT.failed };
  }
  return null;
}

/** The error and each of its causes, with their stacks: what `--verbose` adds. */
export function causeChain(e: unknown): string {
  const parts: string[] = [];
  let current: unknown = e;
  for (let depth = 0; depth < 8 && current !== undefined; depth++) {
    const text =
      current instanceof Error ? (current.stack ?? `${current.name}: ${current.message}`) : String(current);
    parts.push(depth === 0 ? text : `caused by: ${text}`);
    if (current instanceof AggregateError)
      for (const inner of current.errors)
        parts.push(`  one of: ${inner instanceof Error ? inner.stack : inner}`);
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join('\n');
}

// ---- risk-scan evaluate ----------------------------------------------------------------------

export const evaluateFailures = {
  noLabels: () => usage('risk-scan evaluate needs --labels FILE (CSV lines of kind,address,label[,note]).'),
  unreadableLabels: (file: string, cause: unknown) =>
    usage(`Cannot read the labels file ${file}: ${networkReason(cause)}.`, cause),
  malformedLabels: (file: string, detail: string) =>
    usage(`The labels file ${file} is not a labelled list: ${detail}.`),
  badRpc: (url: string) => usage(`--rpc ${url} is not an http(s) URL.`),
  /** Every subject failed: nothing was measured, most likely the RPC itself. */
  nothingScanned: (rpc: string, firstError: string) =>
    failed(
      `No subject could be scanned through ${rpc} (the first failed with: ${firstError}). Check the RPC, or pass --rpc URL.`,
    ),
  cannotWrite: (file: string, cause: unknown) =>
    failed(`Cannot write ${file}: ${networkReason(cause)}.`, cause),
};
