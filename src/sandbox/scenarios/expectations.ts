/**
 * What a scan of each seeded subject must answer, stated beside its scenario entry rather than made
 * by the code that builds it. Codes are typed by the catalog of the subject's scan, so a misspelt
 * or foreign code fails to compile. The builders return the subjects with the facts they made; the
 * schedule adds the expectation of the same name (`withExpectation`).
 */
import type { ProgramFlag } from '../../scans/program/flags.js';
import type { PumpfunFlag } from '../../scans/pumpfun/flags.js';
import type { TokenFlag } from '../../scans/token/flags.js';
import type { TxFlag } from '../../scans/tx/flags.js';
import type { WalletFlag } from '../../scans/wallet/flags.js';
import type { FlagExpect, ScenarioKind, ScenarioSubject } from './manifest.js';

/** The flag codes of each kind's scan (every kind of subject must have its catalog here). */
type FlagCodes = {
  token: TokenFlag;
  pumpfun: PumpfunFlag;
  wallet: WalletFlag;
  tx: TxFlag;
  program: ProgramFlag;
};
export type FlagOf<K extends ScenarioKind> = FlagCodes[K];

export interface ScanExpectation<K extends ScenarioKind = ScenarioKind> {
  readonly kind: K;
  /** Codes the scan must raise. */
  readonly flags: readonly FlagOf<K>[];
  /** Codes it must not raise. */
  readonly notFlags: readonly FlagOf<K>[];
  /** The scan raises exactly `flags` and nothing else. */
  readonly onlyFlags?: true;
}

/** Expectations by subject name. */
export type Expectations = Readonly<Record<string, ScanExpectation>>;

/** What the `kind` scan of a subject must and must not raise. */
export function scan<K extends ScenarioKind>(
  kind: K,
  expected: Omit<ScanExpectation<K>, 'kind'>,
): ScanExpectation<K> {
  return { kind, ...expected };
}

/** A subject as its builder returns it: the facts it was built to have, not yet what a scan must say. */
export type BuiltSubject = ScenarioSubject extends infer S
  ? S extends { expect: infer E }
    ? Omit<S, 'expect'> & { expect: Omit<E, keyof FlagExpect> }
    : never
  : never;

/**
 * The manifest's subject: the built one with its expectation. The flags follow the facts, and a
 * seeded pool (`market`) follows the flags, the order the manifest has always had.
 */
export function withExpectation(built: BuiltSubject, expected: ScanExpectation): ScenarioSubject {
  const { market, ...facts } = built.expect as { market?: unknown };
  const flags: FlagExpect = {
    flags: [...expected.flags],
    notFlags: [...expected.notFlags],
    ...(expected.onlyFlags ? { onlyFlags: true } : {}),
  };
  const expect = { ...facts, ...flags, ...(market === undefined ? {} : { market }) };
  return { ...built, expect } as ScenarioSubject;
}
