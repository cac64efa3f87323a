/**
 * The names of the RPC provider profiles the sandbox can answer as (its profiles live in
 * sandbox/rpc/profiles.ts). Here, outside the sandbox, because the configuration checks
 * SANDBOX_RPC_PROFILE against them and production code loads nothing of the sandbox.
 */
export const RPC_PROFILE_NAMES = ['ideal', 'public-mainnet', 'indexed-provider', 'paid-plan'] as const;
export type RpcProfileName = (typeof RPC_PROFILE_NAMES)[number];
