/** A health check of a Solana JSON-RPC endpoint: it answers getSlot in time. */
import { createSolanaRpc } from '@solana/kit';
import type { CheckResult } from '../health.js';

export function rpcHealthCheck(url: string, timeoutMs: number): () => Promise<CheckResult> {
  const rpc = createSolanaRpc(url);
  return async () => {
    const started = performance.now();
    try {
      const slot = await rpc.getSlot().send({ abortSignal: AbortSignal.timeout(timeoutMs) });
      return { status: 'ok', detail: `slot ${slot}`, latency_ms: Math.round(performance.now() - started) };
    } catch (e) {
      const timedOut = e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError');
      return { status: 'down', detail: timedOut ? `no answer within ${timeoutMs} ms` : 'RPC request failed' };
    }
  };
}
