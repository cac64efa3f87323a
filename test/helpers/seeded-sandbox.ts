/**
 * The seeded sandbox chain and its RPC for one describe block: started in `before`, stopped in
 * `after`. Read the fields inside tests (they are set once `before` has run). With several
 * profiles, one RPC per profile on the same chain (`servers`); `server` is the first.
 */
import { after, before } from 'node:test';
import type { SandboxChain } from '../../src/sandbox/chain/chain.js';
import type { RpcProfileName, RpcProfileOptions } from '../../src/sandbox/rpc/profiles.js';
import { type SandboxRpc, startSandboxRpc } from '../../src/sandbox/rpc/server.js';
import type { ScenarioManifest } from '../../src/sandbox/scenarios/index.js';
import { seededChain } from './seeded-chain.js';

export interface SeededSandbox {
  readonly chain: SandboxChain;
  readonly manifest: ScenarioManifest;
  readonly server: SandboxRpc;
  readonly servers: Readonly<Record<string, SandboxRpc>>;
}

/** Each profile by name, or with options (e.g. `rateLimit: null`); `servers` is keyed by name. */
export function useSeededSandbox(...profiles: (RpcProfileName | RpcProfileOptions)[]): SeededSandbox {
  const sandbox = { servers: {} } as {
    chain: SandboxChain;
    manifest: ScenarioManifest;
    server: SandboxRpc;
    servers: Record<string, SandboxRpc>;
  };
  before(async () => {
    ({ chain: sandbox.chain, manifest: sandbox.manifest } = await seededChain({ autoAdvance: false }));
    for (const profile of profiles.length ? profiles : [undefined]) {
      const server = await startSandboxRpc({ chain: sandbox.chain, host: '127.0.0.1', port: 0, profile });
      sandbox.server ??= server;
      const name = typeof profile === 'object' ? profile.name : profile;
      sandbox.servers[name ?? 'ideal'] = server;
    }
  });
  after(async () => {
    sandbox.chain?.stop();
    for (const server of Object.values(sandbox.servers)) await server.close();
  });
  return sandbox;
}
