/**
 * The seeded chain for tests: the snapshot of the seeded scenarios kept under the system's temp
 * directory (named by the hash of what seeding is made of, so a changed scenario or decoder
 * seeds again; written whole and renamed, so test processes building it at once are safe), read
 * once per process, and a fresh copy of the chain restored from it for each call: every test
 * still has a chain of its own. The first process after a change pays for the seeding.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxChain, SandboxChainOptions } from '../../src/sandbox/chain/chain.js';
import { type ScenarioManifest, seededChain as seededInProcess } from '../../src/sandbox/scenarios/index.js';
import { snapshotSeededChain } from '../../src/sandbox/seeded-snapshot.js';

/**
 * Where the tests' snapshots live, and the SANDBOX_SNAPSHOT_DIR of the sandboxes the tests start.
 * SANDBOX_SNAPSHOT_DIR=none runs the tests as before the snapshot: each process seeds its own.
 */
export const TEST_SNAPSHOT_DIR =
  process.env.SANDBOX_SNAPSHOT_DIR ?? join(tmpdir(), 'solana-risk-scan-snapshots');

/** A chain holding every scenario (`autoAdvance: false` unless said); call `chain.stop()` when done. */
export async function seededChain(
  chainOptions: SandboxChainOptions = {},
): Promise<{ chain: SandboxChain; manifest: ScenarioManifest }> {
  if (TEST_SNAPSHOT_DIR === 'none') return seededInProcess(chainOptions);
  const { chain, manifest } = await snapshotSeededChain(TEST_SNAPSHOT_DIR, chainOptions);
  return { chain, manifest };
}
