/**
 * One seeded chain served under each RPC provider profile, and a scan of a subject under one of
 * them: the probe of getProgramAccounts on pump.fun run against that profile (as the service runs
 * it), every call counted. The creator-history tests of /scan/pumpfun and /scan/token share it.
 */
import { createDefaultRpcTransport, createSolanaRpc, createSolanaRpcFromTransport } from '@solana/kit';
import type { SandboxChain } from '../../src/sandbox/chain/chain.js';
import type { RpcProfileName } from '../../src/sandbox/rpc/profiles.js';
import { type SandboxRpc, startSandboxRpc } from '../../src/sandbox/rpc/server.js';
import type { ScenarioManifest } from '../../src/sandbox/scenarios/index.js';
import { type Scanner, scanDeadline } from '../../src/scans/scanner.js';
import { probePumpCreatorSearch } from '../../src/solana/program-search.js';
import type { SolanaRpc } from '../../src/solana/rpc.js';
import { countingTransport } from './rpc-transports.js';
import { seededChain } from './seeded-chain.js';

export const PROFILES: readonly RpcProfileName[] = ['ideal', 'indexed-provider', 'public-mainnet'];

export interface ProfileScans {
  readonly manifest: ScenarioManifest;
  /** The RPC server answering as `profile` does. */
  url(profile: RpcProfileName): string;
  scan(
    profile: RpcProfileName,
    scanner: Scanner,
    subject: string,
  ): Promise<{
    result: Awaited<ReturnType<Scanner>>['result'];
    evidence: any;
    roundTrips: number;
    calls: string[];
  }>;
  close(): Promise<void>;
}

export async function startProfileScans(): Promise<ProfileScans> {
  const { chain, manifest }: { chain: SandboxChain; manifest: ScenarioManifest } = await seededChain({
    autoAdvance: false,
  });
  const servers = new Map<RpcProfileName, SandboxRpc>();
  for (const name of PROFILES) {
    const profile = { name, rateLimit: null };
    servers.set(name, await startSandboxRpc({ chain, host: '127.0.0.1', port: 0, profile }));
  }
  return {
    manifest,
    url: (profile) => servers.get(profile)!.url,
    scan: async (profile, scanner, subject) => {
      const url = servers.get(profile)!.url;
      const serves = {
        pumpCreatorSearch: await probePumpCreatorSearch(createSolanaRpc(url) as unknown as SolanaRpc, 5_000),
      };
      const counter = countingTransport(createDefaultRpcTransport({ url }));
      const { result } = await scanner(subject, {
        rpc: createSolanaRpcFromTransport(counter.transport) as unknown as SolanaRpc,
        now: Date.now,
        signal: scanDeadline(60_000).signal,
        serves,
      });
      return {
        result,
        evidence: result.evidence as any,
        roundTrips: counter.roundTrips(),
        calls: counter.calls,
      };
    },
    close: async () => {
      chain.stop();
      await Promise.all([...servers.values()].map((s) => s.close()));
    },
  };
}
