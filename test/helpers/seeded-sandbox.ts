/**
 * The seeded sandbox chain and its RPC for one describe block: started in `before`, stopped in
 * `after`. Read the fields inside tests (they are set once `before` has run).
 */
import { after, before } from 'node:test';
import type { SandboxChain } from '../../src/sandbox/chain/chain.js';
import type { RpcProfileName } from '../../src/sandbox/rpc/profiles.js';
import { type SandboxRpc, startSandboxRpc } from '../../src/sandbox/rpc/server.js';
import { type ScenarioManifest, seededChain } from '../../src/sandbox/scenarios/index.js';

export interface SeededSandbox {
  readonly chain: SandboxChain;
  readonly manifest: ScenarioManifest;
  readonly server: SandboxRpc;
}

export function useSeededSandbox(profile?: RpcProfileName): SeededSandbox {
  const sandbox = {} as { chain: SandboxChain; manifest: ScenarioManifest; server: SandboxRpc };
  before(async () => {
    ({ chain: sandbox.chain, manifest: sandbox.manifest } = await seededChain({ autoAdvance: false }));
    sandbox.server = await startSandboxRpc({ chain: sandbox.chain, host: '127.0.0.1', port: 0, profile });
  });
  after(async () => {
    sandbox.chain?.stop();
    await sandbox.server?.close();
  });
  return sandbox;
}
