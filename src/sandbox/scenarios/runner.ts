/**
 * Runs the scenario entries (schedule.ts) in the order their `at` fields give, whatever order they
 * are listed in, and makes the manifest's subjects from what each entry built and what it expects.
 *
 * Times count from the end of the span (`days(-45)`: 45 days before the end, which the restore maps
 * to wall-clock now); `'start'` is set-up at the start of the span. No two entries share a time: an
 * entry that must run from where another left the timeline says `{ after: name }`, and runs right
 * after that one without moving the timeline.
 */
import type { ScenarioContext } from './context.js';
import { type BuiltSubject, type Expectations, withExpectation } from './expectations.js';
import type { ScenarioKind, ScenarioManifest, ScenarioSubject } from './manifest.js';
import type { ProgramsInProgress } from './programs.js';
import type { WalletLedger } from './wallets.js';

/** What one step hands a later one (the USDC mint, the old wallet's ledger, the programs to upgrade). */
export interface Seeding {
  context: ScenarioContext;
  /** Directory of mainnet account dumps to load, or null. */
  mainnetDumps: string | null;
  usdc?: ScenarioManifest['usdc'];
  oldWallet?: WalletLedger;
  programs?: ProgramsInProgress;
}

/** Seconds relative to the end (negative), the start of the span, or right after the named entry. */
export type When = number | 'start' | { readonly after: string };

export interface ScenarioEntry {
  at: When;
  name: string;
  /** What a scan of each subject it builds must answer, by subject name (none: it builds no subject). */
  expect: Expectations;
  /** Some of its subjects need the mainnet dumps: without them, an expectation left unmet is no error. */
  needsDumps?: true;
  /** Builds its part of the chain and returns the subjects it made (their facts, not what a scan says). */
  build: (seeding: Seeding) => Promise<readonly BuiltSubject[]> | Promise<void>;
}

/** The kinds of subject an entry adds to the manifest, read from its expectations. */
export function kindsOf(entry: ScenarioEntry): ScenarioKind[] {
  return [...new Set(Object.values(entry.expect).map((expected) => expected.kind))];
}

type Timed = ScenarioEntry & { at: number | 'start' };
const isTimed = (entry: ScenarioEntry): entry is Timed => typeof entry.at !== 'object';
const startsAt = (entry: Timed): number => (entry.at === 'start' ? -Infinity : entry.at);

/** Each entry that follows another, by the name of the one it follows. */
function followersOf(entries: readonly ScenarioEntry[]): Map<string, ScenarioEntry> {
  const followers = new Map<string, ScenarioEntry>();
  for (const entry of entries) {
    const { at } = entry;
    if (typeof at !== 'object') continue;
    const other = followers.get(at.after);
    if (other) throw new Error(`scenario schedule: ${other.name} and ${entry.name} both follow ${at.after}`);
    followers.set(at.after, entry);
  }
  return followers;
}

/**
 * The entries in the order they run: by time, each followed by the chain of entries `after` it.
 * Throws when two share a time, two follow the same entry, or one follows an entry not there: the
 * order must not depend on how the entries are listed.
 */
export function inTimelineOrder(entries: readonly ScenarioEntry[]): ScenarioEntry[] {
  const followers = followersOf(entries);
  const timed = entries.filter(isTimed).sort((a, b) => startsAt(a) - startsAt(b));
  const shared = timed.find((entry, i) => i > 0 && startsAt(entry) === startsAt(timed[i - 1]!));
  if (shared)
    throw new Error(`scenario schedule: ${shared.name} shares its time; say what it follows with 'after'`);
  const ordered: ScenarioEntry[] = [];
  for (const entry of timed) {
    for (let next: ScenarioEntry | undefined = entry; next; next = followers.get(next.name))
      ordered.push(next);
  }
  const stray = entries.find((entry) => !ordered.includes(entry));
  if (stray) throw new Error(`scenario schedule: ${stray.name} follows no entry that runs`);
  return ordered;
}

/**
 * The manifest's subjects an entry built: each with its expectation, of its kind. A subject without
 * one, or an expectation no subject met, stops seeding.
 */
function expected(entry: ScenarioEntry, built: readonly BuiltSubject[], dumps: boolean): ScenarioSubject[] {
  const subjects = built.map((subject) => {
    const expectation = Object.hasOwn(entry.expect, subject.name) ? entry.expect[subject.name] : undefined;
    if (expectation === undefined) {
      throw new Error(
        `scenario ${entry.name} seeded ${subject.name}, which has no expectation: add '${subject.name}': scan('${subject.kind}', { flags: [...], notFlags: [...] }) to its expect`,
      );
    }
    if (expectation.kind !== subject.kind) {
      throw new Error(
        `scenario ${entry.name} seeded ${subject.name}, a ${subject.kind}, not a ${expectation.kind}`,
      );
    }
    return withExpectation(subject, expectation);
  });
  const unmet = Object.keys(entry.expect).filter((name) => !built.some((subject) => subject.name === name));
  if (unmet.length > 0 && (dumps || !entry.needsDumps)) {
    throw new Error(`scenario ${entry.name} seeded no ${unmet.join(', ')}`);
  }
  return subjects;
}

/** Runs every entry in timeline order, moving the timeline to each entry's time first. */
export async function runSchedule(seeding: Seeding, entries: readonly ScenarioEntry[]): Promise<void> {
  const { timeline, subjects } = seeding.context;
  for (const entry of inTimelineOrder(entries)) {
    if (typeof entry.at === 'number') timeline.moveTo(-entry.at);
    const built = (await entry.build(seeding)) ?? [];
    subjects.push(...expected(entry, built, seeding.mainnetDumps !== null));
  }
}
