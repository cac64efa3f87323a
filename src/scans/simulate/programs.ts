/**
 * Pure: the programs a simulated transaction invokes (top level and through CPI, from the
 * runtime's own "invoke" log lines), each known or not, upgradeable or not.
 */
import type { Address } from '@solana/kit';
import { decodeUpgradeableLoaderState } from '../../solana/decoders/upgradeable-loader.js';
import { BPF_UPGRADEABLE_LOADER, WELL_KNOWN_ADDRESS_NAMES } from '../../solana/programs.js';
import type { SimulateFacts } from './facts.js';

/** Builtins live under the native loader; they are part of the runtime. */
const NATIVE_LOADER = 'NativeLoader1111111111111111111111111111111';
const INVOKE = /^Program ([1-9A-HJ-NP-Za-km-z]{32,44}) invoke \[\d+\]$/;

export interface InvokedProgram {
  readonly program: string;
  readonly name: string | null;
  readonly known: boolean;
  /** The loader that owns it (null: no such account). */
  readonly loader: string | null;
  /** null when it cannot be upgraded (or is not an upgradeable-loader program). */
  readonly upgradeAuthority: string | null;
}

function upgradeAuthorityOf(facts: SimulateFacts, program: string): string | null {
  if (facts.pre.get(program)?.owner !== BPF_UPGRADEABLE_LOADER) return null;
  const header = facts.programData.get(program);
  if (header == null) return null;
  const state = decodeUpgradeableLoaderState(header);
  return state.ok && state.value.kind === 'programData' ? state.value.upgradeAuthority : null;
}

export function invokedPrograms(facts: SimulateFacts, topLevel: readonly string[]): InvokedProgram[] {
  const fromLogs = (facts.simulation?.logs ?? []).flatMap((line) => {
    const m = INVOKE.exec(line);
    return m === null ? [] : [m[1]!];
  });
  // A program index into a lookup table that could not be read names no address: left out.
  const named = [...topLevel, ...fromLogs].filter((p): p is string => typeof p === 'string');
  return [...new Set(named)].map((program) => {
    const loader = facts.pre.get(program)?.owner ?? null;
    const name = WELL_KNOWN_ADDRESS_NAMES.get(program as Address) ?? null;
    return {
      program,
      name,
      known: name !== null || loader === NATIVE_LOADER,
      loader,
      upgradeAuthority: upgradeAuthorityOf(facts, program),
    };
  });
}
