/**
 * One agent's risk-scan session: its paying client (one budget across its calls) and the latest
 * verdict on each token it scanned, for the provider to show.
 */

import { type GateVerdict, gate, RiskScanClient, type ScanResult } from '@solana-risk-scan/client';
import type { AgentRuntime } from './eliza-types.js';
import { clientOptionsFrom } from './settings.js';

export interface TokenVerdict {
  readonly mint: string;
  /** The scan it came from. */
  readonly scan: 'token' | 'pumpfun';
  readonly verdict: GateVerdict;
  readonly result: ScanResult;
  /** When it was paid for, ISO 8601. */
  readonly at: string;
}

export class RiskScanSession {
  private readonly verdicts = new Map<string, TokenVerdict>();
  private latest: TokenVerdict | undefined;

  constructor(readonly client: RiskScanClient) {}

  remember(mint: string, scan: TokenVerdict['scan'], result: ScanResult): TokenVerdict {
    const entry = { mint, scan, verdict: gate(result), result, at: new Date().toISOString() };
    this.verdicts.delete(mint);
    this.verdicts.set(mint, entry);
    this.latest = entry;
    return entry;
  }

  /** The verdict on `mint`, or the latest on any token. */
  verdictOn(mint?: string): TokenVerdict | undefined {
    return (mint === undefined ? undefined : this.verdicts.get(mint)) ?? this.latest;
  }
}

const sessions = new WeakMap<AgentRuntime, Promise<RiskScanSession>>();

/** The runtime's session, opened from its settings on first use. */
export function sessionOf(runtime: AgentRuntime): Promise<RiskScanSession> {
  let session = sessions.get(runtime);
  if (session === undefined) {
    session = clientOptionsFrom(runtime).then((options) => new RiskScanSession(new RiskScanClient(options)));
    session.catch(() => sessions.delete(runtime));
    sessions.set(runtime, session);
  }
  return session;
}
