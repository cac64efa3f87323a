/** Watches on seeded subjects, and a recorder of what the triggers report that tests can wait on. */
import { randomUUID } from 'node:crypto';
import { createSolanaRpc, type Rpc, type SolanaRpcApi } from '@solana/kit';
import { actorSigner } from '../../../src/sandbox/actors/keypair-files.js';
import { performAction } from '../../../src/sandbox/actors/transactions.js';
import type { ScenarioAction, ScenarioManifest } from '../../../src/sandbox/scenarios/index.js';
import { SCANNERS } from '../../../src/scans/registry.js';
import type { AlertPayload, Watch, WatchKind } from '../../../src/watch/model.js';
import {
  type AccountFeed,
  type FreshScan,
  freshScan,
  type RescanReason,
  type TriggerMetrics,
  WatchTriggers,
} from '../../../src/watch/triggers/index.js';

export function sandboxRpc(url: string): Rpc<SolanaRpcApi> {
  return createSolanaRpc(url) as Rpc<SolanaRpcApi>;
}

export function scansOn(rpc: Rpc<SolanaRpcApi>): FreshScan {
  return freshScan({ scanners: SCANNERS, rpc: rpc as never, timeoutMs: 30_000 });
}

/** A watch on `subject` as the paid door makes one: its baseline is a fresh scan. */
export async function watchOn(scan: FreshScan, kind: WatchKind, subject: string): Promise<Watch> {
  const now = Date.now();
  return {
    id: randomUUID(),
    kind,
    subject,
    webhook: 'http://127.0.0.1:9/hook',
    hours: 1,
    createdAt: now,
    expiresAt: now + 3_600_000,
    status: 'active',
    secret: 'whsec_dGVzdA==',
    latest: await scan(kind, subject),
    version: 0,
  };
}

/** Sends the manifest action through the RPC, signed with the actor's key from the manifest. */
export async function act(
  rpc: Rpc<SolanaRpcApi>,
  manifest: ScenarioManifest,
  subjectName: string,
  action: ScenarioAction,
): Promise<string[]> {
  const subject = manifest.subjects.find((s) => s.name === subjectName);
  if (!subject) throw new Error(`no subject ${subjectName}`);
  return performAction(rpc, subject, action, await actorSigner(action.actor));
}

/** Records metrics and changes; `until` resolves once a condition holds, re-checked at each event. */
export class Recorder implements TriggerMetrics {
  open = 0;
  notifications = 0;
  readonly rescans: { reason: RescanReason; outcome: string }[] = [];
  readonly changes: AlertPayload[] = [];
  readonly errors: unknown[] = [];
  private readonly waiting = new Set<() => void>();

  subscriptionsOpen(open: number): void {
    this.open = open;
    this.poke();
  }
  notification(): void {
    this.notifications += 1;
    this.poke();
  }
  rescan(_kind: WatchKind, reason: RescanReason, outcome: 'ok' | 'failed'): void {
    this.rescans.push({ reason, outcome });
    this.poke();
  }
  change(): void {
    this.poke();
  }
  readonly onChange = async (_watch: Watch, payload: AlertPayload): Promise<void> => {
    this.changes.push(payload);
  };

  until(condition: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!condition()) return;
        this.waiting.delete(check);
        resolve();
      };
      this.waiting.add(check);
      check();
    });
  }

  private poke(): void {
    for (const check of [...this.waiting]) check();
  }
}

export function triggersFor(
  watches: readonly Watch[],
  scan: FreshScan,
  feed: AccountFeed | null,
  recorder: Recorder,
  rescanBudget = 10,
): WatchTriggers {
  return new WatchTriggers({
    watches: async () => watches,
    rescan: scan,
    onChange: recorder.onChange,
    feed,
    rescanBudget,
    debounceMs: 20,
    metrics: recorder,
    onError: (error) => recorder.errors.push(error),
  });
}
