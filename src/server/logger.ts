/** Structured JSON logs (pino): one line per request, never a payment header in full. */
import { createHash } from 'node:crypto';
import { pino } from 'pino';

export type Logger = pino.Logger;

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, base: { service: 'solana-risk-scan' } }, destination);
}

/**
 * What may be logged of a payment header: its size and a short digest, enough to correlate
 * retries of the same payment without putting a signed transaction into the logs.
 */
export function paymentFingerprint(header: string): { bytes: number; sha256: string } {
  return { bytes: header.length, sha256: createHash('sha256').update(header).digest('hex').slice(0, 16) };
}
