/**
 * What signing costs a paid 200: the Ed25519 signature of one result body and its header value
 * (src/signing/signature.ts), in this process, for bodies of a small, a typical and a large
 * ScanResult's size. Reported in µs per body, the median of rounds and the lowest–highest round.
 * A 402 is never signed; the HTTP bench shows that path.
 */
import { generateKeyPem, signingKeyFromPem } from '../src/signing/key.js';
import { bodySigner, signatureHeaderValue } from '../src/signing/signature.js';
import { printTable, type Spread, showSpread, spread } from './lib/report.js';

/** Bytes of body: a short result, a token scan's usual size, and a long one with much evidence. */
const SIZES = [1_000, 4_000, 16_000] as const;

export interface SigningResult {
  readonly bytes: number;
  readonly microsPerBody: Spread;
}

export function runSigningBench(options: { bodies: number; rounds: number }): SigningResult[] {
  const sign = bodySigner(signingKeyFromPem(generateKeyPem()));
  const results = SIZES.map((bytes) => {
    const body = JSON.stringify({ evidence: 'é'.repeat(bytes / 2 - 8) });
    for (let i = 0; i < options.bodies; i++) signatureHeaderValue(sign(body)); // warm-up
    const perBody: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      const started = performance.now();
      for (let i = 0; i < options.bodies; i++) signatureHeaderValue(sign(body));
      perBody.push(((performance.now() - started) * 1000) / options.bodies);
    }
    return { bytes: Buffer.byteLength(body), microsPerBody: spread(perBody) };
  });
  printTable(
    `Signing a paid 200's body (Ed25519, node:crypto; ${options.rounds} rounds of ${options.bodies} bodies)`,
    ['body bytes', 'µs per body, median (min–max)'],
    results.map((r) => [String(r.bytes), showSpread(r.microsPerBody, 1)]),
  );
  return results;
}
