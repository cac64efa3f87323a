/**
 * A creator's earlier launch whose outcome can no longer change, kept (../fact-store.ts): a launch's
 * outcome is read from its bonding curve (history-assess.ts: graduated when `complete`, dead when
 * not complete and under DEAD_RESERVES of real SOL, else on the curve). Only `complete` is final:
 * pump sets it when the curve sells out and no instruction ever clears it, and the creator a curve
 * names, once set, is never set again. A dead curve is not final (anyone may still buy it back to
 * life), nor are a complete curve's reserves (the migration empties them): neither is kept.
 *
 * A graduated launch is kept once its curve's newest transaction is finalized (one
 * getSignaturesForAddress of the curve, limit 1, at `confirmed`, which lists a newer transaction
 * not yet final too): the state read is then that of a finalized slot, the slot kept with it. A
 * later scan of any coin of the same creator takes the outcome from the store instead of reading
 * that curve again, and its evidence says so (`from_kept_facts`).
 */
import type { Address } from '@solana/kit';
import { decodeBondingCurve } from '../../solana/decoders/pump-bonding-curve.js';
import { PUMP_PROGRAM } from '../../solana/programs.js';
import type { SolanaRpc } from '../../solana/rpc.js';
import { type FactStore, keepFact, keptFact } from '../fact-store.js';
import { isFinalized } from '../token-facts/kept-transactions.js';
import { isSignaturePage } from '../token-facts/transaction-json.js';

/** The fact under which a launch's final outcome is kept, by its curve's address. */
export const LAUNCH_OUTCOME_FACT = 'launch-outcome';
/** Graduated curves whose finality is asked per scan, at most (one call each); the rest wait for a later scan. */
export const MAX_OUTCOMES_CONFIRMED = 8;

/** The one outcome that cannot change, and whose launch it is. */
interface KeptOutcome {
  readonly outcome: 'graduated';
  readonly creator: string;
}

/** A launch's curve as read now (its bytes), or its final outcome as kept (read at `slot`). */
export type LaunchCurveRead =
  | { readonly address: string; readonly data: Uint8Array }
  | { readonly address: string; readonly kept: { readonly outcome: 'graduated'; readonly slot: number } };

type Bound = { readonly send: { readonly abortSignal?: AbortSignal } };
const bytesOf = (base64: string) => new Uint8Array(Buffer.from(base64, 'base64'));

/** The pump curves among `addresses` that name `creator` (100 per call, all at once). */
export async function readCurves(
  rpc: SolanaRpc,
  addresses: readonly string[],
  creator: string,
  bound: Bound,
) {
  const chunks: string[][] = [];
  for (let i = 0; i < addresses.length; i += 100) chunks.push(addresses.slice(i, i + 100));
  const read = await Promise.all(
    chunks.map((c) => rpc.getMultipleAccounts(c as Address[], { encoding: 'base64' }).send(bound.send)),
  );
  // Keyed by the addresses each call asked for: a short or long answer never names the wrong curve.
  return read.flatMap((r, k) =>
    chunks[k]!.flatMap((address, i) => {
      const account = r.value[i];
      if (account === null || account === undefined || account.owner !== PUMP_PROGRAM) return [];
      const data = bytesOf(account.data[0]);
      const curve = decodeBondingCurve(data);
      return curve.ok && curve.value.creator === creator ? [{ address, data }] : [];
    }),
  );
}

const parseOutcome = (text: string): KeptOutcome => {
  const value = JSON.parse(text) as KeptOutcome;
  if (value.outcome !== 'graduated' || typeof value.creator !== 'string') throw new Error('not an outcome');
  return value;
};

/** Each address's kept outcome for this creator, or undefined (not kept, another creator's, unreadable). */
async function keptOutcomes(facts: FactStore | undefined, addresses: readonly string[], creator: string) {
  return Promise.all(
    addresses.map(async (address) => {
      const kept = await keptFact(facts, address, LAUNCH_OUTCOME_FACT, parseOutcome);
      if (kept?.value.creator !== creator) return undefined;
      return { address, kept: { outcome: 'graduated' as const, slot: kept.slot } };
    }),
  );
}

/** Keeps a graduated curve's outcome when its newest transaction is finalized; a failure keeps nothing. */
async function confirmAndKeep(
  rpc: SolanaRpc,
  facts: FactStore,
  curve: string,
  creator: string,
  bound: Bound,
) {
  const page = await rpc
    .getSignaturesForAddress(curve as Address, { limit: 1, commitment: 'confirmed' })
    .send(bound.send)
    .catch(() => null);
  const newest = isSignaturePage(page) ? page[0] : undefined;
  const slot = (newest as { slot?: unknown } | undefined)?.slot;
  if (newest === undefined || !isFinalized(newest) || (typeof slot !== 'bigint' && typeof slot !== 'number'))
    return;
  const value = JSON.stringify({ outcome: 'graduated', creator } satisfies KeptOutcome);
  keepFact(facts, curve, LAUNCH_OUTCOME_FACT, { value, slot: Number(slot), commitment: 'finalized' });
}

const isComplete = (data: Uint8Array) => {
  const decoded = decodeBondingCurve(data);
  return decoded.ok && decoded.value.complete;
};

/**
 * The pump curves among `addresses` that name `creator` (readCurves), those whose final outcome is
 * kept taken from the store unread; the graduated ones read now are kept once final.
 */
export async function readLaunchCurves(
  rpc: SolanaRpc,
  addresses: readonly string[],
  creator: string,
  bound: Bound,
  facts?: FactStore,
): Promise<LaunchCurveRead[]> {
  const kept = await keptOutcomes(facts, addresses, creator);
  const unread = addresses.filter((_, i) => kept[i] === undefined);
  const read = unread.length === 0 ? [] : await readCurves(rpc, unread, creator, bound);
  if (facts !== undefined) {
    const graduated = read.filter((c) => isComplete(c.data)).slice(0, MAX_OUTCOMES_CONFIRMED);
    await Promise.all(graduated.map((c) => confirmAndKeep(rpc, facts, c.address, creator, bound)));
  }
  // In the order asked, as readCurves answers: the list reads the same whichever way a launch came.
  const byAddress = new Map(read.map((c) => [c.address, c]));
  return addresses.flatMap((address, i) => kept[i] ?? byAddress.get(address) ?? []);
}

/** The slots the outcomes served from the store were read at (the evidence's line), or null when none. */
export function keptOutcomeSummary(curves: readonly LaunchCurveRead[]) {
  const slots = curves.flatMap((c) => ('kept' in c ? [c.kept.slot] : []));
  if (slots.length === 0) return null;
  return { graduated_launches: slots.length, read_at_slots: [Math.min(...slots), Math.max(...slots)] };
}
