/**
 * The Solana RPC client every scanner uses: kit's RPC over one transport that puts a
 * timeout on each request and fails over across the configured endpoints. Scanners never see
 * URLs; tests swap the transport (e.g. a counting or fault-injecting one).
 */
import {
  createDefaultRpcTransport,
  createSolanaRpcFromTransport,
  type Rpc,
  type RpcTransport,
  type SolanaRpcApi,
} from '@solana/kit';

export type SolanaRpc = Rpc<SolanaRpcApi>;

export interface RpcOptions {
  readonly urls: readonly string[];
  readonly timeoutMs: number;
}

function isRetryable(e: unknown): boolean {
  // Transport-level failures (network, timeout, HTTP 5xx/429) are worth another endpoint;
  // a JSON-RPC error answer is returned by the transport as a value and never gets here.
  return e instanceof Error;
}

/** One transport over several endpoints: each call tries them in order until one answers. */
export function createFailoverTransport(
  transports: readonly RpcTransport[],
  timeoutMs: number,
): RpcTransport {
  if (transports.length === 0) throw new Error('at least one RPC endpoint is required');
  return (async (request) => {
    let lastError: unknown;
    for (const transport of transports) {
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
      try {
        return await transport({ ...request, signal });
      } catch (e) {
        if (request.signal?.aborted || !isRetryable(e)) throw e;
        lastError = e;
      }
    }
    throw lastError;
  }) as RpcTransport;
}

export function createRpc(options: RpcOptions): SolanaRpc {
  const transports = options.urls.map((url) => createDefaultRpcTransport({ url }));
  return createSolanaRpcFromTransport(createFailoverTransport(transports, options.timeoutMs));
}
