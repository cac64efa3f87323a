/**
 * How a `risk-scan` command ends when its environment fails it: one line on stderr that says
 * what went wrong and what to do, and an exit code from EXIT. The wording of every such line
 * lives here. `--verbose` adds the cause chain after the line, for bug reports.
 */
import type { Config } from '../config.js';
import { ConfigError } from '../config.js';
import { errorMessage } from '../errors.js';
import { KeypairFileError } from '../sandbox/keypair-file.js';
import { AccountLoadError } from '../sandbox/loaded-accounts.js';
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

/** A failure already put in words, with the exit code it ends in. */
export class CliFailure extends Error {
  override readonly name = 'CliFailure';
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const usage = (message: string, cause?: unknown) => new CliFailure(message, EXIT.usage, { cause });
const failed = (message: string, cause?: unknown) => new CliFailure(message, EXIT.failed, { cause });

/** The code of a network error as undici reports it (its `cause`, or the first of several). */
function networkCode(e: unknown): string | undefined {
  let current: unknown = e;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'ERR_INVALID_ARG_TYPE') return code;
    const first = current instanceof AggregateError ? current.errors[0] : undefined;
    current = first ?? current.cause;
  }
  return undefined;
}

export function isTimeout(e: unknown): boolean {
  return e instanceof Error && (e.name === 'TimeoutError' || networkCode(e) === 'UND_ERR_CONNECT_TIMEOUT');
}

/** Why a connection failed, in a few words ("connection refused"). */
export function networkReason(e: unknown): string {
  switch (networkCode(e)) {
    case 'ECONNREFUSED':
      return 'connection refused (nothing listens there)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'its host name does not resolve';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'the connection was closed before an answer came';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the host cannot be reached from this machine';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'the connection timed out';
    default: {
      if (e instanceof Error && e.cause instanceof Error && e.cause.message === 'bad port')
        return 'fetch refuses to connect to that port (it is reserved for another protocol)';
      const inner = e instanceof Error && e.cause instanceof Error ? e.cause : e;
      return errorMessage(inner);
    }
  }
}

// ---- risk-scan call -------------------------------------------------------------------------

export const callFailures = {
  noApi: () =>
    usage('No API URL: pass --api URL, or start the sandbox first (npm start, or npx risk-scan sandbox).'),
  noRpc: () => usage('No Solana RPC URL: pass --rpc URL.'),
  noKeypair: () => usage('No payer keypair: pass --keypair FILE (a Solana CLI keypair file).'),
  badPath: () => usage('The path must start with "/", e.g. /scan/token/<mint>.'),
  badOption: (text: string) => usage(text),

  /** `from`: where the URL came from when not from --api (the sandbox manifest). */
  apiUnreachable: (url: string, cause: unknown, seconds: number, from: string | null) => {
    const origin = from === null ? '' : ` (from ${from})`;
    const fix =
      from === null
        ? 'Check that the API runs there, or pass --api URL.'
        : 'Start the sandbox (npm start), or pass --api URL.';
    return isTimeout(cause)
      ? failed(
          `The API at ${url}${origin} did not answer within ${seconds} s. Check that it runs there, pass --api URL, or wait longer with --timeout SECONDS.`,
          cause,
        )
      : failed(`Cannot reach the API at ${url}${origin}: ${networkReason(cause)}. ${fix}`, cause);
  },
  /** The paid request itself failed: the payment was signed and sent. */
  paidCallLost: (url: string, cause: unknown, seconds: number) =>
    failed(
      isTimeout(cause)
        ? `The API at ${url} did not answer the paid call within ${seconds} s; the payment may still settle. Wait longer with --timeout SECONDS.`
        : `The API at ${url} failed during the paid call: ${networkReason(cause)}; the payment may still settle. Check the API, then try again.`,
      cause,
    ),
  rpcUnreachable: (url: string, cause: unknown, seconds: number) =>
    isTimeout(cause)
      ? failed(
          `The Solana RPC at ${url} did not answer within ${seconds} s. Pass --rpc URL with a responsive RPC, or wait longer with --timeout SECONDS. Nothing was paid.`,
          cause,
        )
      : failed(
          `Cannot reach the Solana RPC at ${url}: ${networkReason(cause)}. Pass --rpc URL (the sandbox's is rpcUrl in sandbox.json). Nothing was paid.`,
          cause,
        ),
  rpcRefused: (url: string, detail: string, cause?: unknown) =>
    failed(
      `The Solana RPC at ${url} could not be used: ${detail}. Pass --rpc URL with a Solana RPC of the API's network. Nothing was paid.`,
      cause,
    ),
  noAnswerForPayment: (url: string, status: number) =>
    failed(
      `The API at ${url} answered 402 without a PAYMENT-REQUIRED header (HTTP ${status}): it does not take x402 v2 payments. Check --api.`,
    ),
  /** The 402's offer cannot be paid by this client; `why` says what is missing. */
  unpayable: (why: string) =>
    failed(`The API asks for a payment this client cannot make: ${why}. Nothing was paid.`),
  overBudget: (priceUsd: number, maxUsd: number) =>
    usage(
      `The call costs ${priceUsd} USDC, more than --max-usd ${maxUsd}; nothing was paid. Raise --max-usd to pay it.`,
    ),
  /** `howToGetMore`: the fix, which depends on the chain (sandbox or mainnet) and the payer. */
  notEnoughUsdc: (payer: string, holds: string, price: string, howToGetMore: string) =>
    failed(
      `The payer ${payer} holds ${holds} USDC and this call costs ${price} USDC. ${howToGetMore} Nothing was paid.`,
    ),
  refused: (reason: string) => failed(`The payment was refused: ${reason.replace(/\.$/, '')}.`),
};

// ---- every command ---------------------------------------------------------------------------

/**
 * The line and exit code an error ends a command in, or null when it is not one this module
 * knows (a bug: the caller says so in one line and `--verbose` shows the rest).
 */
export function describeFailure(e: unknown, config: Config | null): { line: string; code: ExitCode } | null {
  if (e instanceof CliFailure) return { line: e.message, code: e.exitCode };
  if (e instanceof ConfigError || e instanceof KeypairFileError || e instanceof AccountLoadError)
    return { line: e.message, code: EXIT.usage };
  if (config !== null) {
    const start = describeStartFailure(e, config);
    if (start !== null) return { line: start, code: EXIT.failed };
  }
  return null;
}

export function unexpectedFailure(e: unknown): string {
  const what = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return `risk-scan stopped on an unexpected error (${what.split('\n')[0]}). This is a bug: run it again with --verbose and report what it prints.`;
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
