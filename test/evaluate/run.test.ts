/**
 * scoreSubjects on the seeded sandbox: the real scanners score each subject; a subject whose
 * scan fails or hangs is reported with its error and the others are still scored.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSolanaRpc } from '@solana/kit';
import type { LabelledSubject } from '../../src/evaluate/labels.js';
import { scoreSubjects } from '../../src/evaluate/run.js';
import type { SandboxChain } from '../../src/sandbox/chain/chain.js';
import { type SandboxRpc, startSandboxRpc } from '../../src/sandbox/rpc/server.js';
import { type ScenarioManifest, subject } from '../../src/sandbox/scenarios/index.js';
import { SCANNERS } from '../../src/scans/registry.js';
import { seededChain } from '../helpers/seeded-chain.js';

describe('scoreSubjects', () => {
  let chain: SandboxChain;
  let server: SandboxRpc;
  let manifest: ScenarioManifest;
  before(async () => {
    ({ chain, manifest } = await seededChain());
    server = await startSandboxRpc({ chain, host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    chain.stop();
    await server.close();
  });

  const labelled = (
    endpoint: 'token' | 'wallet' | 'program',
    name: string,
    line: number,
  ): LabelledSubject => ({
    endpoint,
    address: subject(manifest, endpoint, name).address,
    label: 'x',
    note: '',
    extra: {},
    line,
  });

  it('scores with the real scanners; a failing or hanging scan is an outcome, not the end of the run', async () => {
    // Faults injected: the wallet scan fails, the program scan never answers.
    const scanners = {
      ...SCANNERS,
      wallet: async () => {
        throw new Error('getSignaturesForAddress: 429 Too Many Requests\n  at somewhere');
      },
      program: () => new Promise<never>(() => {}),
    };
    const run = (subjects: LabelledSubject[], timeoutMs: number) =>
      scoreSubjects(subjects, { scanners, rpc: createSolanaRpc(server.url), timeoutMs, concurrency: 2 });
    // The real scans get a deadline no busy machine reaches.
    const scored = await run(
      [
        labelled('token', 'token:clean', 1),
        labelled('wallet', 'wallet:burner', 2),
        labelled('token', 'token:t22-non-transferable', 4),
      ],
      120_000,
    );
    assert.deepEqual(
      scored.map((s) => s.subject.line),
      [1, 2, 4],
      'input order',
    );
    const [clean, wallet, soulbound] = scored.map((s) => s.outcome);
    // No flag but the missing market (the sandbox's clean token has no pool).
    assert.ok(clean?.ok && clean.score < 0.2 && clean.flags.join() === 'MARKET_NONE', JSON.stringify(clean));
    assert.deepEqual(wallet, { ok: false, error: 'getSignaturesForAddress: 429 Too Many Requests' });
    assert.ok(soulbound?.ok && soulbound.flags.includes('NON_TRANSFERABLE') && soulbound.score >= 0.85);
    // The hanging scan never answers, so a short deadline ends it however busy the machine is.
    const hung = await run(
      [labelled('program', 'program:single-key', 3), labelled('wallet', 'wallet:burner', 2)],
      200,
    );
    assert.deepEqual(
      hung.map((s) => s.outcome),
      [
        { ok: false, error: 'the scan took longer than 200 ms' },
        { ok: false, error: 'getSignaturesForAddress: 429 Too Many Requests' },
      ],
    );
  });
});
