/**
 * How a paid call fails when its environment fails it: one line that says what went wrong and
 * what to do, shared by `risk-scan call`, `risk-scan mcp` and anything else that pays. The
 * wording of every such line lives here; whoever shows it decides how it ends (an exit code,
 * a tool's error).
 */
import { KeypairFileError } from './keypair-file.js';
import { isTimeout, networkReason } from './network-errors.js';

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

/** The line an error of this client is shown as, or null when it is not one it knows (a bug). */
export function describeWordedFailure(e: unknown): { line: string; kind: FailureKind } | null {
  if (e instanceof WordedFailure) return { line: e.message, kind: e.kind };
  if (e instanceof KeypairFileError) return { line: e.message, kind: 'usage' };
  return null;
}

export function unexpectedFailure(e: unknown): string {
  const what = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return `risk-scan stopped on an unexpected error (${what.split('\n')[0]}). This is a bug: run it again with --verbose and report what it prints.`;
}

/** The one line any error ends a paid call in. */
export const failureLine = (e: unknown): string => describeWordedFailure(e)?.line ?? unexpectedFailure(e);
