/**
 * Scanners that consult the fact store (fact-store.ts) whoever runs them: the paid scans
 * (ScanService) and the watches' re-scans alike, so a re-scan reads only what may have changed.
 */
import type { FactStore } from './fact-store.js';
import type { Scanner } from './scanner.js';

export function withFacts<K extends string>(
  scanners: Readonly<Partial<Record<K, Scanner>>>,
  facts: FactStore | undefined,
): Readonly<Partial<Record<K, Scanner>>> {
  if (facts === undefined) return scanners;
  const wrapped: Partial<Record<K, Scanner>> = {};
  for (const [kind, scanner] of Object.entries(scanners) as [K, Scanner | undefined][]) {
    if (scanner) wrapped[kind] = (subject, context) => scanner(subject, { ...context, facts });
  }
  return wrapped;
}
