/** Option values the commands share, checked with the words a wrong one is refused in. */
import { WordedFailure } from '../client/failures.js';

export const usageError = (text: string) =>
  new WordedFailure(`${text} (risk-scan --help shows the usage)`, 'usage');

/** `--timeout`: seconds, above 0. */
export function timeoutOption(text: string): number {
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw usageError('--timeout must be a number of seconds above 0');
  return seconds;
}

/** A USDC amount option: a number, 0 or more. */
export function usdOption(option: string, text: string): number {
  const usd = Number(text);
  if (!Number.isFinite(usd) || usd < 0) throw usageError(`--${option} must be a number of USDC, 0 or more`);
  return usd;
}

/** `--pay-to`: the service's payee, a base58 address (the payment is refused unless the 402 names it). */
export function payToOption(text: string | undefined): { payTo?: string } {
  if (text === undefined) return {};
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(text))
    throw usageError(`--pay-to ${text} is not a Solana address (the service's payTo, in base58)`);
  return { payTo: text };
}
