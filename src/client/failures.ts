/**
 * How a paid call fails before it reaches the client package (no API, RPC or keypair given, an
 * API not reached): one line that says what went wrong and what to do, shared by `risk-scan
 * call` and `risk-scan mcp`. The package words the payment's own failures (RiskScanError);
 * whoever shows either decides how it ends (an exit code, a tool's error).
 */
import { isTimeout, networkReason, RiskScanError } from '@solana-risk-scan/client/errors';
import { KeypairFileError } from './keypair-file.js';

/** `usage`: the caller asked for something wrong (an option, a keypair, a budget); `failed`: the environment failed it. */
export type FailureKind = 'usage' | 'failed';

/** A failure already put in words (a paid call's here; the commands' own too). */
export class WordedFailure extends Error {
  override readonly name = 'WordedFailure';
  constructor(
    message: string,
    readonly kind: FailureKind,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const usage = (message: string, cause?: unknown) => new WordedFailure(message, 'usage', { cause });
const failed = (message: string, cause?: unknown) => new WordedFailure(message, 'failed', { cause });

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
};

/** The line an error of this client is shown as, or null when it is not one it knows (a bug). */
export function describeWordedFailure(e: unknown): { line: string; kind: FailureKind } | null {
  if (e instanceof WordedFailure) return { line: e.message, kind: e.kind };
  if (e instanceof KeypairFileError) return { line: e.message, kind: 'usage' };
  // The client package's failures of a paid call, already worded with this command's options.
  if (e instanceof RiskScanError) return { line: e.message, kind: e.kind };
  return null;
}

export function unexpectedFailure(e: unknown): string {
  const what = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return `risk-scan stopped on an unexpected error (${what.split('\n')[0]}). This is a bug: run it again with --verbose and report what it prints.`;
}

/** The one line any error ends a paid call in. */
export const failureLine = (e: unknown): string => describeWordedFailure(e)?.line ?? unexpectedFailure(e);
