/** Scanners that judge impersonation by the registry copy in use when each scan starts. */
import type { Scanner } from '../scanner.js';
import type { VerifiedRegistry } from './model.js';

export function withVerifiedTokens<K extends string>(
  scanners: Readonly<Partial<Record<K, Scanner>>>,
  current: () => VerifiedRegistry,
): Readonly<Partial<Record<K, Scanner>>> {
  const wrapped: Partial<Record<K, Scanner>> = {};
  for (const [kind, scanner] of Object.entries(scanners) as [K, Scanner | undefined][]) {
    if (scanner) wrapped[kind] = (subject, context) => scanner(subject, { ...context, verified: current() });
  }
  return wrapped;
}
