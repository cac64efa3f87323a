/**
 * `risk-scan act <subject> <action>`: sends a sandbox action (sandbox.json lists them per subject)
 * signed with its actor's keypair file, through the sandbox RPC's sendTransaction, so a user can
 * change a watched subject's verdict and see the watch report it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSolanaRpc, type Rpc, type SolanaRpcApi } from '@solana/kit';
import { WordedFailure } from '../client/failures.js';
import { readKeypairFile } from '../client/keypair-file.js';
import { errorMessage } from '../errors.js';
import type { ScenarioAction, ScenarioSubject } from '../sandbox/scenarios/manifest.js';
import { EXIT } from './failures.js';
import { usageError } from './options.js';

export const ACT_USAGE = `  risk-scan act <subject> <action> [--manifest FILE] [--rpc URL]
                                          send a sandbox action (e.g. token:authorities-live
                                          freeze) signed by its actor, through the sandbox RPC;
                                          prints its signatures and the flags it should change
                                          (default: the running sandbox's sandbox.json); the
                                          sandbox runs no DEX or pump.fun program: withdraw-lp's
                                          reserve payout is the sandbox's stand-in for CPMM, and
                                          sell-dev-buy moves only the tokens a sale moves`;

interface Manifest {
  readonly rpcUrl: string;
  readonly subjects: readonly ScenarioSubject[];
}

async function readManifest(path: string): Promise<Manifest> {
  let manifest: Partial<Manifest> | null;
  try {
    manifest = JSON.parse(await readFile(path, 'utf8')) as Partial<Manifest> | null;
  } catch (cause) {
    throw new WordedFailure(
      `Cannot read the sandbox manifest ${path}: start the sandbox (risk-scan sandbox) or pass --manifest FILE.`,
      'usage',
      { cause },
    );
  }
  if (!Array.isArray(manifest?.subjects) || typeof manifest.rpcUrl !== 'string') {
    throw new WordedFailure(`${path} is not a sandbox manifest (it names no rpcUrl and subjects).`, 'usage');
  }
  return manifest as Manifest;
}

function findAction(manifest: Manifest, subjectName: string, actionName: string) {
  const subject = manifest.subjects.find((s) => s.name === subjectName);
  const actions = subject && 'actions' in subject ? (subject.actions ?? []) : [];
  const action = actions.find((a) => a.name === actionName);
  if (subject !== undefined && action !== undefined) return { subject, action };
  const known = manifest.subjects.flatMap((s) =>
    'actions' in s ? (s.actions ?? []).map((a: ScenarioAction) => `${s.name} ${a.name}`) : [],
  );
  throw usageError(`no action ${actionName} on ${subjectName}; the sandbox has: ${known.join(', ')}`);
}

export async function actCommand(args: string[], env: Record<string, string | undefined>): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { manifest: { type: 'string' }, rpc: { type: 'string' } },
  });
  const [subjectName, actionName] = positionals;
  if (subjectName === undefined || actionName === undefined)
    throw usageError('risk-scan act needs a subject and an action, e.g. token:authorities-live freeze');
  const manifest = await readManifest(values.manifest ?? join(env.SANDBOX_DIR ?? '.sandbox', 'sandbox.json'));
  const { subject, action } = findAction(manifest, subjectName, actionName);
  if (action.actor.keypair === undefined)
    throw usageError(`the manifest names no keypair file for ${actionName}`);
  const actor = await readKeypairFile(action.actor.keypair);
  const rpc = createSolanaRpc(values.rpc ?? manifest.rpcUrl) as Rpc<SolanaRpcApi>;
  // Loaded here, not at start: no other command pays for the sandbox's transaction builders.
  const { performAction } = await import('../sandbox/actors/transactions.js');
  const signatures = await performAction(rpc, subject, action, actor).catch((cause: unknown) => {
    throw new WordedFailure(
      `The sandbox RPC refused the ${actionName} transaction: ${errorMessage(cause)}`,
      'failed',
      {
        cause,
      },
    );
  });
  for (const signature of signatures) process.stdout.write(`${signature}\n`);
  const { flagsAdded, flagsRemoved } = action.change;
  const change = [...flagsAdded.map((f) => `+${f}`), ...flagsRemoved.map((f) => `-${f}`)].join(' ');
  process.stderr.write(`${subjectName}: ${action.description}. Its scan should now show ${change}.\n`);
  return EXIT.ok;
}
