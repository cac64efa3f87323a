/** What every scenario module gets: the chain being seeded, deterministic keys, the timeline, and the manifest being built. */
import type { KeyPairSigner } from '@solana/kit';
import type { SandboxChain } from '../chain/chain.js';
import type { KeyRing } from './builders/keys.js';
import type { Timeline } from './builders/timeline.js';
import type { HolderExpect, ScenarioSubject, SimulationScenario } from './manifest.js';

export const LAMPORTS_PER_SOL = 1_000_000_000n;

export interface ScenarioContext {
  chain: SandboxChain;
  keys: KeyRing;
  timeline: Timeline;
  subjects: ScenarioSubject[];
  simulations: SimulationScenario[];
  /** A small valid SBF program (LiteSVM's Memo v2 ELF) for deployments and stand-ins. */
  programElf: Uint8Array;
}

/**
 * The signer for `label`, given `lamports` by writing its account directly: setup wallets (deployers,
 * token authorities) need SOL for fees, not a funding transaction in their history.
 */
export async function fundedSigner(
  context: ScenarioContext,
  label: string,
  lamports: bigint = 100n * LAMPORTS_PER_SOL,
): Promise<KeyPairSigner> {
  const signer = await context.keys.signer(label);
  context.chain.setAccount({ address: signer.address, lamports });
  return signer;
}

/** Holders largest first, and the largest one's share of `supply` in basis points. */
export function holderDistribution(
  holders: HolderExpect[],
  supply: bigint,
): { holders: HolderExpect[]; topHolderShareBps: number } {
  const sorted = [...holders].sort((a, b) => {
    const difference = BigInt(b.amount) - BigInt(a.amount);
    return difference > 0n ? 1 : difference < 0n ? -1 : 0;
  });
  const top = sorted[0] ? BigInt(sorted[0].amount) : 0n;
  return { holders: sorted, topHolderShareBps: supply > 0n ? Number((top * 10_000n) / supply) : 0 };
}
