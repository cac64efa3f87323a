/**
 * The scenario schedule: entries are run in timeline order (the start first, then earliest first,
 * entries at the same time in the order listed), the timeline moves only at a new time, and an entry
 * that seeds a subject of a kind it does not declare is refused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSandboxChain, type SandboxChain } from '../../../src/sandbox/chain/chain.js';
import { KeyRing } from '../../../src/sandbox/scenarios/builders/keys.js';
import { DAY, HOUR, Timeline } from '../../../src/sandbox/scenarios/builders/timeline.js';
import type { ScenarioContext } from '../../../src/sandbox/scenarios/context.js';
import {
  days,
  hours,
  inTimelineOrder,
  runSchedule,
  SCENARIOS,
  type ScenarioEntry,
} from '../../../src/sandbox/scenarios/schedule.js';

const entry = (at: ScenarioEntry['at'], name: string, build: ScenarioEntry['build'] = async () => {}) => ({
  at,
  name,
  kinds: [],
  build,
});

describe('scenario schedule', () => {
  let chain: SandboxChain;
  let context: ScenarioContext;
  before(async () => {
    chain = await createSandboxChain({ autoAdvance: false });
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

  it('orders by time: the start first, then earliest first, ties as listed', () => {
    const order = inTimelineOrder([
      entry(hours(-1), 'b'),
      entry(days(-1), 'a'),
      entry(hours(-1), 'c'),
      entry('start', 'setup'),
      entry(0, 'end'),
    ]).map((e) => e.name);
    assert.deepEqual(order, ['setup', 'a', 'b', 'c', 'end']);
  });

  it('lists the sandbox scenarios in the order they run, so the list reads as the timeline', () => {
    assert.deepEqual(
      inTimelineOrder(SCENARIOS).map((e) => e.name),
      SCENARIOS.map((e) => e.name),
    );
  });

  it('moves the timeline to each new time, and not between entries that share one', async () => {
    const seen: [string, number][] = [];
    const note = (name: string) => async () => {
      seen.push([name, context.timeline.secondsBeforeEnd]);
      context.timeline.advance(60);
    };
    await runSchedule({ context, mainnetDumps: null }, [
      entry(hours(-3), 'second', note('second')),
      entry(days(-1), 'first', note('first')),
      entry(hours(-3), 'third', note('third')),
    ]);
    assert.deepEqual(seen, [
      ['first', DAY],
      ['second', 3 * HOUR],
      ['third', 3 * HOUR - 60],
    ]);
  });

  it('refuses a subject of a kind its entry does not declare', async () => {
    const stray = entry(hours(-2), 'stray', async () => {
      context.subjects.push({ name: 'tx:stray', kind: 'tx' } as ScenarioContext['subjects'][number]);
    });
    await assert.rejects(runSchedule({ context, mainnetDumps: null }, [stray]), /stray seeded tx:stray/);
  });
});
