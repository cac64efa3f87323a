/**
 * The triggers on the seeded sandbox, over its real WebSocket: each actor's transaction, sent through
 * the RPC, is reported as exactly one change with the manifest's flags; an untouched subject is not;
 * watches share subscriptions; a lost connection is re-opened; without WebSocket the periodic check
 * alone catches the change. No test sleeps: each waits on what the triggers report.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { action, type ScenarioKind } from '../../../src/sandbox/scenarios/index.js';
import type { WatchKind } from '../../../src/watch/model.js';
import {
  type AccountFeed,
  createAccountFeed,
  type WatchTriggers,
} from '../../../src/watch/triggers/index.js';
import { useSeededSandbox } from '../../helpers/seeded-sandbox.js';
import { act, Recorder, sandboxRpc, scansOn, triggersFor, watchOn } from './helpers.js';

const ACTIONS = [
  ['token:authorities-live', 'mint'],
  ['token:authorities-live', 'freeze'],
  ['program:single-key', 'upgrade'],
  ['pumpfun:dev-holding', 'sell-dev-buy'],
  ['token:pool-lp-creator', 'burn-lp'],
] as const;

/** A seeded chain of its own, and triggers following watches on it, stopped after the block. */
function useTriggers() {
  const sandbox = useSeededSandbox();
  const running: { triggers: WatchTriggers; feed: AccountFeed | null }[] = [];
  after(async () => {
    for (const { triggers, feed } of running) {
      await triggers.stop();
      feed?.close();
    }
  });

  /** Triggers following one watch on each of `subjects`, subscriptions confirmed. */
  async function follow(subjects: readonly string[], options: { webSocket?: boolean } = {}) {
    const rpc = sandboxRpc(sandbox.server.url);
    const scan = scansOn(rpc);
    const recorder = new Recorder();
    const feed =
      options.webSocket === false
        ? null
        : createAccountFeed({
            wsUrl: sandbox.server.wsUrl,
            events: { opened: (open) => recorder.subscriptionsOpen(open) },
            backoffMs: () => 20,
          });
    const watches = await Promise.all(
      subjects.map((name) => {
        const found = sandbox.manifest.subjects.find((s) => s.name === name)!;
        return watchOn(scan, kindOf(found.kind), (found as { address: string }).address);
      }),
    );
    const triggers = triggersFor(watches, scan, feed, recorder);
    running.push({ triggers, feed });
    await triggers.sync();
    await recorder.until(() => recorder.open === triggers.followed);
    return { rpc, recorder, triggers, feed, watches };
  }
  return { sandbox, follow };
}

/** One action by its actor, sent through the RPC: one change reported, with the manifest's flags. */
async function reportedOnce(
  triggersOn: ReturnType<typeof useTriggers>,
  subjectName: string,
  actionName: string,
) {
  const expected = action(triggersOn.sandbox.manifest, subjectName, actionName);
  const { rpc, recorder, triggers } = await triggersOn.follow([subjectName]);
  assert.ok(triggers.followed > 1, `${triggers.followed} accounts followed`);
  await act(rpc, triggersOn.sandbox.manifest, subjectName, expected);
  await recorder.until(() => recorder.changes.length > 0);
  // Reported before any periodic check ran: a followed account's notification started the re-scan.
  assert.ok(recorder.rescans.length > 0, 'a re-scan ran');
  assert.deepEqual(
    recorder.rescans.filter((r) => r.reason !== 'notification'),
    [],
    'no periodic check',
  );
  // The periodic check re-scans the now changed subject: no second report of the same change.
  await triggers.check();
  assert.equal(recorder.changes.length, 1);
  const [change] = recorder.changes;
  assert.deepEqual([...change!.changed.flagsAdded].sort(), [...expected.change.flagsAdded].sort());
  assert.deepEqual([...change!.changed.flagsRemoved].sort(), [...expected.change.flagsRemoved].sort());
  for (const flag of expected.after.flags) assert.ok(change!.after.flags.includes(flag), flag);
  for (const flag of expected.after.notFlags) assert.ok(!change!.after.flags.includes(flag), flag);
  assert.ok(recorder.notifications > 0, 'a subscription noticed the transaction');
  assert.deepEqual(recorder.errors, []);
}

describe('watch triggers: each sandbox actor', { timeout: 120_000 }, () => {
  const triggersOn = useTriggers();

  for (const [subjectName, actionName] of ACTIONS) {
    it(`${subjectName}: ${actionName} by its actor is reported once, with the manifest's flags`, () =>
      reportedOnce(triggersOn, subjectName, actionName));
  }
});

// A chain of its own: burn-lp above takes the same subject's LP first.
describe('watch triggers: the LP pulled', { timeout: 120_000 }, () => {
  const triggersOn = useTriggers();

  it("token:pool-lp-creator: withdraw-lp by its LP holder is reported once, from the LP accounts' notifications", () =>
    reportedOnce(triggersOn, 'token:pool-lp-creator', 'withdraw-lp'));
});

describe('watch triggers: periodic checks, shared and lost subscriptions', { timeout: 120_000 }, () => {
  const { sandbox, follow } = useTriggers();

  it('a periodic re-scan of an untouched subject reports nothing', async () => {
    const { recorder, triggers } = await follow(['token:clean', 'program:immutable']);
    await triggers.check();
    assert.equal(recorder.rescans.filter((r) => r.reason === 'periodic' && r.outcome === 'ok').length, 2);
    assert.deepEqual(recorder.changes, []);
    assert.deepEqual(recorder.errors, []);
  });

  it('two watches on one subject share one subscription per account', async () => {
    const single = await follow(['token:concentrated']);
    const double = await follow(['token:concentrated', 'token:concentrated']);
    assert.equal(double.watches.length, 2);
    assert.equal(double.triggers.followed, single.triggers.followed);
    assert.equal(double.feed?.open, single.feed?.open);
  });

  it('a watch that ends is let go: its subject’s subscriptions close when no other watch needs them', async () => {
    const { recorder, triggers, watches } = await follow(['token:concentrated', 'program:immutable']);
    const program = triggers.followed;
    const ended = watches.splice(0, 1);
    await triggers.sync();
    await recorder.until(() => recorder.open === triggers.followed);
    assert.ok(triggers.followed < program && triggers.followed > 0, `${program} → ${triggers.followed}`);
    assert.equal(ended.length, 1);
    watches.splice(0);
    await triggers.sync();
    await recorder.until(() => recorder.open === 0);
    assert.equal(triggers.followed, 0);
  });

  it('once stopped, sync, check and start do nothing: no subscription re-opened, no re-scan', async () => {
    const { recorder, triggers } = await follow(['token:authorities-live']);
    assert.ok(triggers.followed > 0);
    await triggers.stop();
    assert.equal(recorder.open, 0, 'stop closed every subscription');
    const rescans = recorder.rescans.length;
    await triggers.sync();
    assert.equal(triggers.followed, 0, 'sync after stop follows nothing');
    await triggers.check();
    triggers.start(1);
    await triggers.sync();
    assert.equal(triggers.followed, 0);
    assert.equal(recorder.open, 0);
    assert.equal(recorder.rescans.length, rescans, 'no re-scan after stop');
    assert.deepEqual(recorder.errors, []);
    await triggers.stop();
  });

  it('a lost connection is re-opened, and the periodic check still catches a change', async () => {
    const subjectName = 'token:pool-lp-creator';
    const expected = action(sandbox.manifest, subjectName, 'burn-lp');
    const { rpc, recorder, triggers } = await follow([subjectName]);
    const followed = triggers.followed;
    sandbox.server.dropSockets();
    await recorder.until(() => recorder.open < followed);
    await act(rpc, sandbox.manifest, subjectName, expected);
    await triggers.check();
    // Re-opened: every account the triggers follow now (the burn took the LP holder's account out).
    await recorder.until(() => recorder.open === triggers.followed);
    assert.equal(recorder.changes.length, 1);
    assert.deepEqual(recorder.changes[0]!.changed.flagsAdded, expected.change.flagsAdded);
  });

  it('an RPC without WebSocket: no subscription, the periodic check catches the change', async () => {
    const subjectName = 'program:single-key';
    const expected = action(sandbox.manifest, subjectName, 'upgrade');
    const { rpc, recorder, triggers } = await follow([subjectName], { webSocket: false });
    assert.equal(triggers.followed, 0);
    await act(rpc, sandbox.manifest, subjectName, expected);
    assert.equal(recorder.changes.length, 0);
    await triggers.check();
    assert.equal(recorder.notifications, 0);
    assert.deepEqual(recorder.rescans, [{ reason: 'periodic', outcome: 'ok' }]);
    assert.equal(recorder.changes.length, 1);
    assert.deepEqual(recorder.changes[0]!.changed.flagsAdded, expected.change.flagsAdded);
  });
});

function kindOf(kind: ScenarioKind): WatchKind {
  if (kind === 'tx') throw new Error('transactions are not watched');
  return kind;
}
