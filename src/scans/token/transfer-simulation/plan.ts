/**
 * Pure: does this mint need a simulated transfer, or does its static read already prove the
 * answer? A simulation costs one more sequential round trip, so it runs only where code the
 * scanner cannot read (a transfer hook, an extension it does not know) decides the transfer.
 */
import type { Address } from '@solana/kit';
import type { DecodedMint } from '../../../solana/decoders/mint.js';

export type SimulationPlan =
  | { readonly simulate: false; readonly why: string }
  | { readonly simulate: true; readonly why: string; readonly hookProgram: Address | null };

export function planTransferSimulation(mint: DecodedMint): SimulationPlan {
  if (mint.program === 'spl-token') {
    return {
      simulate: false,
      why: 'SPL Token has no pause, hook, fee or default state: a transfer between unfrozen accounts always succeeds (the freeze power is its own flag)',
    };
  }
  const x = mint.extensions;
  if (x.nonTransferable) return { simulate: false, why: 'proven by the mint: it is non-transferable' };
  if (x.pausable?.paused) return { simulate: false, why: 'proven by the mint: it is paused' };
  if (x.defaultAccountState === 'frozen') {
    return { simulate: false, why: "proven by the mint: a buyer's new token account starts frozen" };
  }
  if (x.transferHook?.programId) {
    return {
      simulate: true,
      why: `every transfer runs hook program ${x.transferHook.programId}, whose code decides`,
      hookProgram: x.transferHook.programId,
    };
  }
  const unknown = x.present.some((e) => e.name === null) || x.undecodable.length > 0 || !x.tlvComplete;
  if (unknown) {
    return { simulate: true, why: 'the mint carries extensions this scanner cannot read', hookProgram: null };
  }
  return {
    simulate: false,
    why: 'every Token-2022 extension of the mint is known, and none refuses or taxes a transfer beyond its declared fee',
  };
}
