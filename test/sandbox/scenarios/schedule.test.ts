/**
 * The scenario schedule: entries run in the order their `at` fields give (the start first, then
 * earliest first, an entry `after` another right after it), whatever order they are listed in; the
 * timeline moves only at an entry's own time; and each subject an entry builds gets the expectation
 * its entry states for it — a subject without one, of another kind, or an expectation no subject
 * met stops seeding.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createSandboxChain, type SandboxChain } from '../../../src/sandbox/chain/chain.js';
import { KeyRing } from '../../../src/sandbox/scenarios/builders/keys.js';
import { DAY, HOUR, Timeline } from '../../../src/sandbox/scenarios/builders/timeline.js';
import type { ScenarioContext } from '../../../src/sandbox/scenarios/context.js';
import { type BuiltSubject, scan } from '../../../src/sandbox/scenarios/expectations.js';
import {
  inTimelineOrder,
  kindsOf,
  runSchedule,
  type ScenarioEntry,
} from '../../../src/sandbox/scenarios/runner.js';
import { days, hours, SCENARIOS } from '../../../src/sandbox/scenarios/schedule.js';

const entry = (
  at: ScenarioEntry['at'],
  name: string,
  build: ScenarioEntry['build'] = async () => {},
  expect: ScenarioEntry['expect'] = {},
): ScenarioEntry => ({ at, name, expect, build });

/** The same entries in another order, from a small deterministic generator (a test must repeat). */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const wallet = (name: string): BuiltSubject => ({
  name,
  kind: 'wallet',
  address: '11111111111111111111111111111111',
  description: 'a wallet',
  expect: { signatureCount: 0, failedCount: 0, firstBlockTime: 0, lastBlockTime: 0, lamports: '0' },
});

describe('scenario schedule', () => {
  let chain: SandboxChain;
  let context: ScenarioContext;
  before(async () => {
    chain = await createSandboxChain({ autoAdvance: false });
  });
  beforeEach(() => {
    context = {
      chain,
      keys: new KeyRing('schedule-test'),
      timeline: new Timeline(chain, 2 * DAY),
      subjects: [],
      simulations: [],
      programElf: new Uint8Array(),
    };
  });
  after(() => chain.stop());

  it('orders by time: the start first, then earliest first, each follower right after its entry', () => {
    const entries = [
      entry({ after: 'b' }, 'b2'),
      entry(hours(-1), 'b'),
      entry(days(-1), 'a'),
      entry({ after: 'b2' }, 'b3'),
      entry('start', 'setup'),
      entry({ after: 'setup' }, 'setup2'),
      entry(0, 'end'),
    ];
    const expected = ['setup', 'setup2', 'a', 'b', 'b2', 'b3', 'end'];
    assert.deepEqual(
      inTimelineOrder(entries).map((e) => e.name),
      expected,
    );
    for (let seed = 1; seed <= 20; seed++) {
      assert.deepEqual(
        inTimelineOrder(shuffled(entries, seed)).map((e) => e.name),
        expected,
      );
    }
  });

  it('refuses an order the entries leave open: a shared time, two followers of one entry, a follower of nothing', () => {
    assert.throws(() => inTimelineOrder([entry(hours(-1), 'a'), entry(hours(-1), 'b')]), /b shares its time/);
    assert.throws(() => inTimelineOrder([entry('start', 'a'), entry('start', 'b')]), /shares its time/);
    assert.throws(
      () => inTimelineOrder([entry(0, 'a'), entry({ after: 'a' }, 'b'), entry({ after: 'a' }, 'c')]),
      /b and c both follow a/,
    );
    assert.throws(
      () => inTimelineOrder([entry(0, 'a'), entry({ after: 'gone' }, 'b')]),
      /b follows no entry/,
    );
  });

  it('runs the sandbox scenarios in one order however they are listed, the order they are listed in', () => {
    const order = SCENARIOS.map((e) => e.name);
    assert.deepEqual(
      inTimelineOrder(SCENARIOS).map((e) => e.name),
      order,
    );
    for (let seed = 1; seed <= 50; seed++) {
      assert.deepEqual(
        inTimelineOrder(shuffled(SCENARIOS, seed)).map((e) => e.name),
        order,
        `shuffle ${seed}`,
      );
    }
  });

  it('states the kinds of subject each sandbox entry adds through its expectations', () => {
    const kinds = (name: string) => kindsOf(SCENARIOS.find((e) => e.name === name)!).sort();
    assert.deepEqual(kinds('pump.fun curves and pools, 12 → 6 hours'), ['pumpfun', 'wallet']);
    assert.deepEqual(kinds('insider launches'), ['pumpfun', 'token']);
    assert.deepEqual(kinds('USDC'), []);
  });

  it('moves the timeline to each entry’s time; a follower goes on from where its entry left it', async () => {
    const seen: [string, number][] = [];
    const note = (name: string) => async () => {
      seen.push([name, context.timeline.secondsBeforeEnd]);
      context.timeline.advance(60);
    };
    await runSchedule({ context, mainnetDumps: null }, [
      entry(hours(-3), 'second', note('second')),
      entry(days(-1), 'first', note('first')),
      entry({ after: 'second' }, 'third', note('third')),
    ]);
    assert.deepEqual(seen, [
      ['first', DAY],
      ['second', 3 * HOUR],
      ['third', 3 * HOUR - 60],
    ]);
  });

  it('lists each built subject with its entry’s expectation: flags after the facts', async () => {
    const expect = { 'wallet:a': scan('wallet', { flags: ['FRESH_WALLET'], notFlags: [], onlyFlags: true }) };
    await runSchedule({ context, mainnetDumps: null }, [
      entry(hours(-1), 'a', async () => [wallet('wallet:a')], expect),
    ]);
    const [listed] = context.subjects;
    assert.deepEqual(listed?.expect, {
      ...wallet('wallet:a').expect,
      flags: ['FRESH_WALLET'],
      notFlags: [],
      onlyFlags: true,
    });
    assert.deepEqual(Object.keys(listed?.expect ?? {}).slice(-3), ['flags', 'notFlags', 'onlyFlags']);
  });

  it('refuses a subject its entry states no expectation for, saying what to add', async () => {
    await assert.rejects(
      runSchedule({ context, mainnetDumps: null }, [
        entry(hours(-1), 'stray', async () => [wallet('wallet:x')]),
      ]),
      /scenario stray seeded wallet:x, which has no expectation: add 'wallet:x': scan\('wallet', \{ flags: \[\.\.\.\], notFlags: \[\.\.\.\] \}\) to its expect/,
    );
  });

  it('refuses a subject whose expectation is for another kind of scan', async () => {
    const expect = { 'wallet:x': scan('tx', { flags: [], notFlags: [] }) };
    await assert.rejects(
      runSchedule({ context, mainnetDumps: null }, [
        entry(hours(-1), 'odd', async () => [wallet('wallet:x')], expect),
      ]),
      /odd seeded wallet:x, a wallet, not a tx/,
    );
  });

  it('refuses an expectation no subject met, unless it waits on mainnet dumps that were not loaded', async () => {
    const expect = { 'wallet:never': scan('wallet', { flags: [], notFlags: [] }) };
    const idle = entry(hours(-1), 'idle', async () => [], expect);
    await assert.rejects(runSchedule({ context, mainnetDumps: null }, [idle]), /idle seeded no wallet:never/);
    await runSchedule({ context, mainnetDumps: null }, [{ ...idle, at: hours(-0.5), needsDumps: true }]);
    await assert.rejects(
      runSchedule({ context, mainnetDumps: '/dumps' }, [{ ...idle, at: 0, needsDumps: true }]),
      /idle seeded no wallet:never/,
    );
  });

  it('types each code by the catalog of its scan: a misspelt or foreign code does not compile', () => {
    // @ts-expect-error TX_HIGH_FEES is not a code of /verify/tx
    const misspelt = scan('tx', { flags: ['TX_HIGH_FEES'], notFlags: [] });
    // @ts-expect-error TX_FAILED is a code of /verify/tx, not of /scan/token
    const foreign = scan('token', { flags: [], notFlags: ['TX_FAILED'] });
    assert.equal(misspelt.kind, 'tx');
    assert.equal(foreign.kind, 'token');
  });
});
