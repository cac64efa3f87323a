/**
 * A pump.fun coin's creator history as both token scans read it (/scan/pumpfun, and /scan/token on
 * a mint whose pump.fun curve exists), from the curve read with the mint in round 1:
 *   2. beside the holders, the mints of every token account the curve's creator owns, under SPL
 *      Token and Token-2022 (getTokenAccountsByOwner, 32-byte data slices: only the mint), with
 *      the program-wide search and the creator's signatures (history.ts);
 *   3. the bonding-curve PDA of each of those mints (getMultipleAccounts, 100 at a time, in
 *      parallel), beside the pools: those owned by the pump program and naming the same creator
 *      are its launches; with them the creator's transactions (history.ts), then, for coins only
 *      they found, those coins' curves.
 * A launch is found by its token account only while the creator still has one (an emptied one
 * counts; a closed one does not): the other sources cover what that misses (docs/risk-model.md).
 */
import { type Address, getAddressDecoder } from '@solana/kit';
import { errorMessage } from '../../errors.js';
import { decodeBondingCurve, findBondingCurveAddress } from '../../solana/decoders/pump-bonding-curve.js';
import type { RpcServes } from '../../solana/program-search.js';
import { PUMP_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../../solana/programs.js';
import type { SolanaRpc } from '../../solana/rpc.js';
import type { FactStore } from '../fact-store.js';
import type { RawAccount } from '../token-facts/model.js';
import { type CreatorHistoryRead, readHistoryLaunches, readHistorySources } from './history.js';
import { type LaunchCurveRead, readLaunchCurves } from './launch-curves.js';

/** Most mints whose curves are read per scan (5 calls in parallel): beyond it the history is truncated. */
export const MAX_CANDIDATE_MINTS = 500;
/** How launches are found, said in every result that has them. */
export const LAUNCHES_FOUND_VIA = 'creator token accounts';

/**
 * One launch: the curve of a coin whose curve names the same creator, as read now (its bytes) or,
 * for an outcome that cannot change, as kept by an earlier scan (launch-curves.ts).
 */
export type LaunchCurve = LaunchCurveRead & {
  /** The coin's mint (absent when not known). */
  readonly mint?: string;
};

/** How far the creator's token accounts reach: what the list of launches can have missed. */
export interface LaunchCoverage {
  /** Token accounts the creator owns, under both token programs (emptied ones included). */
  readonly tokenAccounts: number;
  /** Distinct mints among them, other than this coin. */
  readonly mints: number;
  /** Mints whose curves were read (at most MAX_CANDIDATE_MINTS). */
  readonly mintsRead: number;
  /** Some mints were not read: there may be more launches. */
  readonly truncated: boolean;
  /** The creator has a token account of this coin (its dev buy, kept or emptied, not closed). */
  readonly holdsThisCoin: boolean;
}

export interface CreatorLaunches {
  /** Curves of the coins the creator launched, this one first; null when they could not be read. */
  readonly curves: readonly LaunchCurve[] | null;
  readonly error: string | null;
  /** What the search reached; absent when it is not known to be partial. */
  readonly coverage?: LaunchCoverage;
  /** The program-wide search and the creator's own transactions (history.ts); absent when not run. */
  readonly history?: CreatorHistoryRead;
}

const addressDecoder = getAddressDecoder();

/** The mint of every token account `owner` has under `programId` (emptied ones included; closed ones are gone). */
async function mintsOwnedBy(
  rpc: SolanaRpc,
  owner: Address,
  programId: Address,
  send: { abortSignal?: AbortSignal },
): Promise<Address[]> {
  const { value } = await rpc
    .getTokenAccountsByOwner(
      owner,
      { programId },
      { encoding: 'base64', dataSlice: { offset: 0, length: 32 }, commitment: 'confirmed' },
    )
    .send(send);
  return value.map((a) => {
    const bytes = new Uint8Array(Buffer.from(a.account.data[0], 'base64'));
    if (bytes.length !== 32) throw new Error(`token account ${a.pubkey}: no mint in its data`);
    return addressDecoder.decode(bytes);
  });
}

/** Round 2: the mints of the creator's token accounts; round 3 reads their curves (`launchCurves`). */
interface CreatorMints {
  readonly creator: Address;
  readonly owned: readonly Address[];
  readonly others: readonly Address[];
}

async function creatorMints(
  rpc: SolanaRpc,
  mint: Address,
  curve: RawAccount | null,
  abortSignal?: AbortSignal,
): Promise<CreatorMints | CreatorLaunches | null> {
  if (curve === null || curve.owner !== PUMP_PROGRAM) return null;
  const decoded = decodeBondingCurve(curve.data);
  const creator = decoded.ok ? decoded.value.creator : null;
  if (creator === null) return null;
  const send = abortSignal ? { abortSignal } : {};
  try {
    // Both token programs at once.
    const [legacy, t22] = await Promise.all([
      mintsOwnedBy(rpc, creator, TOKEN_PROGRAM, send),
      mintsOwnedBy(rpc, creator, TOKEN_2022_PROGRAM, send),
    ]);
    const owned = [...legacy, ...t22];
    return { creator, owned, others: [...new Set(owned)].filter((m) => m !== mint) };
  } catch (e) {
    return { curves: null, error: errorMessage(e) };
  }
}

/** The candidate mints whose curves round 3 reads, and those curves' PDAs (local work). */
async function launchCandidates({ others }: CreatorMints) {
  // Over the cap, pump.fun's vanity mints (…pump) go first: they are the likeliest launches.
  const ordered = [...others.filter((m) => m.endsWith('pump')), ...others.filter((m) => !m.endsWith('pump'))];
  const candidates = ordered.slice(0, MAX_CANDIDATE_MINTS);
  return { candidates, curveAddresses: await Promise.all(candidates.map((m) => findBondingCurveAddress(m))) };
}

async function launchCurves(
  rpc: SolanaRpc,
  mint: Address,
  curve: RawAccount,
  { creator, owned, others }: CreatorMints,
  { candidates, curveAddresses }: Awaited<ReturnType<typeof launchCandidates>>,
  abortSignal?: AbortSignal,
  facts?: FactStore,
): Promise<CreatorLaunches> {
  const send = abortSignal ? { abortSignal } : {};
  try {
    // Every candidate's curve PDA, 100 per call, all calls at once, keyed by the address asked for.
    const mintOf = new Map(curveAddresses.map((address, i) => [address as string, candidates[i]!]));
    const read = await readLaunchCurves(rpc, curveAddresses, creator, { send }, facts);
    const found: LaunchCurve[] = read.map((c) => ({ ...c, mint: mintOf.get(c.address)! }));
    return {
      curves: [{ address: curve.address, data: curve.data, mint }, ...found],
      error: null,
      coverage: {
        tokenAccounts: owned.length,
        mints: others.length,
        mintsRead: candidates.length,
        truncated: candidates.length < others.length,
        holdsThisCoin: owned.includes(mint),
      },
    };
  } catch (e) {
    return { curves: null, error: errorMessage(e) };
  }
}

/** The creator a pump.fun curve names, or null when the account is no pump curve. */
export function curveCreator(curve: RawAccount | null | undefined): string | null {
  if (!curve || curve.owner !== PUMP_PROGRAM) return null;
  const decoded = decodeBondingCurve(curve.data);
  return decoded.ok ? decoded.value.creator : null;
}

/** Every source's curves, each once (this coin's first), with its mint where one source names it. */
function unionLaunches(
  byAccounts: CreatorLaunches,
  history: CreatorHistoryRead,
  curve: RawAccount,
  mint: Address,
  candidates: { candidates: readonly Address[]; curveAddresses: readonly Address[] } | null,
): CreatorLaunches {
  const fromProgram = history.programAccounts.status === 'read' ? history.programAccounts.curves : [];
  if (
    byAccounts.curves === null &&
    history.programAccounts.status !== 'read' &&
    history.signatures.status !== 'read'
  ) {
    return byAccounts;
  }
  const mintOf = new Map<string, string>();
  candidates?.curveAddresses.forEach((a, i) => {
    mintOf.set(a, candidates.candidates[i]!);
  });
  for (const l of history.launches) mintOf.set(l.curve, l.mint);
  const seen = new Set<string>([curve.address]);
  const curves: LaunchCurve[] = [{ address: curve.address, data: curve.data, mint }];
  for (const c of [...(byAccounts.curves ?? []), ...fromProgram, ...history.curves]) {
    if (seen.has(c.address)) continue;
    seen.add(c.address);
    const known = mintOf.get(c.address);
    const { mint: _, ...curveRead } = c as LaunchCurve;
    curves.push({ ...curveRead, ...(known ? { mint: known } : {}) });
  }
  return { ...byAccounts, curves, history };
}

/** What the RPC serves, asked only once a curve names a creator (a mint not on pump.fun never asks). */
export type AskServes = () => Promise<RpcServes | undefined>;

/**
 * Round 2 of the creator history, from the curve round 1 read (null or no pump curve: nothing is
 * read): the creator's mints and the history sources; resolves to round 3's read, the launches.
 */
export async function creatorLaunchesRound2(
  rpc: SolanaRpc,
  mint: Address,
  curve: RawAccount | null,
  serves: AskServes,
  abortSignal?: AbortSignal,
  facts?: FactStore,
): Promise<() => Promise<CreatorLaunches | null>> {
  const creator = curveCreator(curve);
  if (creator === null || curve === null) return async () => null;
  const sources = serves().then((s) => readHistorySources(rpc, creator as Address, s, abortSignal));
  const mints = await creatorMints(rpc, mint, curve, abortSignal);
  if (mints === null) return async () => null;
  // The launches' curve PDAs are derived as soon as the mints are listed, inside round 2.
  const candidates = 'creator' in mints ? await launchCandidates(mints) : null;
  const history = await sources;
  return async () => {
    const known = new Set(candidates?.curveAddresses ?? []);
    const [byAccounts, read] = await Promise.all([
      candidates && 'creator' in mints
        ? launchCurves(rpc, mint, curve, mints, candidates, abortSignal, facts)
        : Promise.resolve(mints as CreatorLaunches),
      readHistoryLaunches(rpc, history, { address: mint, curve: curve.address }, known, facts),
    ]);
    return unionLaunches(byAccounts, read, curve, mint, candidates);
  };
}
