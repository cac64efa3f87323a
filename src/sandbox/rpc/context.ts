import type { SandboxChain } from '../chain/chain.js';

/** The solana-core version the sandbox reports; close to what mainnet nodes ran when it was written. */
export const API_VERSION = '3.1.12';

export interface RpcContext {
  slot: bigint;
  apiVersion: string;
}

export function contextOf(chain: SandboxChain): RpcContext {
  return { slot: chain.slot, apiVersion: API_VERSION };
}

export function withContext<T>(chain: SandboxChain, value: T): { context: RpcContext; value: T } {
  return { context: contextOf(chain), value };
}

export type MethodHandler = (chain: SandboxChain, params: unknown[]) => unknown;
export type MethodTable = Record<string, MethodHandler>;
