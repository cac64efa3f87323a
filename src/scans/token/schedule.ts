/**
 * The read schedule of a token: which reads go in which round trip, and why. /scan/token and
 * /scan/pumpfun both read through here; each adds its own reads through `ScanExtension`.
 *   1. `readRound1` (reads.ts): the mint and its Metaplex metadata (PDA derived locally) with the
 *      accounts the extension reads beside them, in one getMultipleAccounts; the largest holders,
 *      the current epoch and the mint's newest signatures (its age), all in parallel. The mint
 *      and metadata are decoded as soon as they are in (view.ts).
 *   2. Everything that needs round 1 and nothing later, side by side:
 *      - the largest holders' token accounts (`readHolders`), with a transfer hook's validation
 *        account (transfer-simulation/facts.ts); their owners are decoded once, on arrival;
 *      - the governing accounts behind program-derived authorities (governors.ts), unless the
 *        issuer is a trusted one, whose own words win;
 *      - a young token's first transactions (launch/facts.ts): no later read needs them, so round
 *        3 leaves without waiting for them;
 *      - the extension's round-2 reads (pump.fun: the creator's token accounts), asked for before
 *        the launch's transactions, so a node that answers in order answers them first;
 *      - the pool vault PDAs the holders call for, derived (CPU) while the round is in flight.
 *   3. Whatever needs the holders' accounts: the pools (../liquidity, a round or more), a Realms
 *      DAO's name (`readRealms`, only for a verified SPL Governance authority), the transfer
 *      simulation (it waits for round 2's holders, then simulates), and the extension's round-3
 *      reads (pump.fun: the curves of the creator's other coins).
 *      Beside them, insiders by funding (insiders/facts.ts): started in round 2, each wallet as soon
 *      as the holders or the launch's buyers are in, bounded in calls and time on their own.
 * The pool PDAs depend on the mint alone: they are derived while round 1 is in flight.
 */
import type { Address } from '@solana/kit';
import { findMetadataAddress } from '../../solana/decoders/metaplex-metadata.js';
import { PYTH_SOL_USD_ACCOUNT } from '../../solana/decoders/pyth-price-update.js';
import type { SolanaRpc } from '../../solana/rpc.js';
import type { FactStore } from '../fact-store.js';
import { type DerivedPools, derivePools, discoverWith, poolsOnceHeld } from '../liquidity/discover.js';
import { gatherLiquidity, type LiquidityFacts } from '../liquidity/facts.js';
import type { HeldBy, MintHistory, MintView, RawAccount, TokenView } from '../token-facts/model.js';
import { TRUSTED_ISSUERS } from '../token-facts/trusted.js';
import { decodeMintRead, heldBy, tokenView } from '../token-facts/view.js';
import { derivedAuthoritiesOf, readGovernors, readRealms } from './governors.js';
import { gatherInsiderFacts, insiderInputs } from './insiders/facts.js';
import { gatherLaunchFacts } from './launch/facts.js';
import { type LargestRead, readHolders, readRound1 } from './reads.js';
import { simulateTransferRounds, simulationReads } from './transfer-simulation/facts.js';

type Send = { abortSignal?: AbortSignal };

/** What round 1 found, as the extension's round-2 work gets it. */
export interface Round1 {
  readonly mint: Address;
  readonly metadataAddress: Address;
  readonly mintAccount: RawAccount | null;
  readonly metadataAccount: RawAccount | null;
  /** The extension's accounts, read with the mint, in the order it asked for them (null = none). */
  readonly withMint: readonly (RawAccount | null)[];
  /** Pyth's SOL/USD price account, read with the mint: the trade sizes' dollars. */
  readonly solUsd: RawAccount | null;
  readonly largest: LargestRead;
  readonly epoch: bigint | null;
  readonly history: MintHistory | null;
  readonly decoded: MintView;
}

/**
 * The one way a scan adds reads to a token's schedule: accounts read with the mint in round 1, and
 * work of its own in round 2 that hands round 3 what it reads there. Both token scans use it.
 */
export interface ScanExtension<Found> {
  /** Accounts read with the mint (PDAs of the mint, derived before round 1). */
  readonly withMint: readonly Address[];
  /** The launch's creator when the extension's accounts name it (else the creation's fee payer is used). */
  readonly launchCreator?: (withMint: readonly (RawAccount | null)[]) => string | null;
  /** Round 2's work, beside the holders; resolves to the read round 3 runs beside the pools. */
  readonly round2: (first: Round1) => Promise<() => Promise<Found>>;
}

export interface TokenRead<Found> {
  readonly view: TokenView;
  readonly liquidity: LiquidityFacts;
  /** What the extension read (undefined without one). */
  readonly found: Found | undefined;
}

async function roundOne(
  rpc: SolanaRpc,
  mint: Address,
  withMint: readonly Address[],
  send: Send,
): Promise<Round1> {
  const metadataAddress = await findMetadataAddress(mint);
  const { raw, largest, epoch, history } = await readRound1(
    rpc,
    mint,
    [mint, metadataAddress, ...withMint, PYTH_SOL_USD_ACCOUNT],
    send,
  );
  const mintAccount = raw[0] ?? null;
  const metadataAccount = raw[1] ?? null;
  const decoded = decodeMintRead(mintAccount, metadataAccount);
  return {
    mint,
    metadataAddress,
    mintAccount,
    metadataAccount,
    withMint: raw.slice(2, 2 + withMint.length),
    solUsd: raw[2 + withMint.length] ?? null,
    largest,
    epoch,
    history,
    decoded,
  };
}

/**
 * Round 2's own read, sent before the work beside it: the holders' accounts and the hook's
 * validation account, decoded on arrival (wrapped, so the caller goes on while it is in flight).
 */
async function sendHoldersRead(
  rpc: SolanaRpc,
  first: Round1,
  send: Send,
): Promise<{ held: Promise<HeldBy> }> {
  const also = await simulationReads(first.mintAccount, first.decoded);
  return { held: readHolders(rpc, first.largest.list ?? [], also, send).then(heldBy) };
}

/** The view of rounds 1 and 2 (the work beside them is added to it in round 3). */
function viewAfterRound2(first: Round1, held: HeldBy, now: () => number): TokenView {
  const facts = {
    mint: first.mint,
    mintAccount: first.mintAccount,
    metadataAddress: first.metadataAddress,
    metadataAccount: first.metadataAccount,
    extraAccounts: first.withMint,
    solUsdAccount: first.solUsd,
    epoch: first.epoch,
    largest: first.largest.list,
    largestError: first.largest.error,
    holderAccounts: held.read.accounts,
    history: first.history,
    nowSeconds: Math.floor(now() / 1000),
  };
  return tokenView(facts, first.decoded, held.holders);
}

/** Rounds 1 and 2 alone, with no work beside them: the token's facts, decoded. */
export async function gatherTokenFacts(
  rpc: SolanaRpc,
  mint: Address,
  now: () => number,
  signal?: AbortSignal,
): Promise<{ facts: TokenView }> {
  const send = signal ? { abortSignal: signal } : {};
  const first = await roundOne(rpc, mint, [], send);
  const { held } = await sendHoldersRead(rpc, first, send);
  return { facts: viewAfterRound2(first, await held, now) };
}

/** Round 2's work beside the holders (see the header): started at once, each on its own. */
function roundTwo<Found>(
  rpc: SolanaRpc,
  first: Round1,
  held: Promise<HeldBy>,
  derived: Promise<DerivedPools>,
  extension: ScanExtension<Found> | undefined,
  signal: AbortSignal | undefined,
  facts: FactStore | undefined,
) {
  const send = signal ? { abortSignal: signal } : {};
  const simulation = simulateTransferRounds(
    rpc,
    { mintAccount: first.mintAccount, decoded: first.decoded, holders: held },
    send,
  );
  simulation.catch(() => {}); // awaited in round 3; not unhandled if round 2 fails first
  const found = extension?.round2(first);
  const creator = extension?.launchCreator?.(first.withMint) ?? null;
  const launch = gatherLaunchFacts({ mint: first.mint, history: first.history }, rpc, signal, {
    creator,
    facts,
  });
  launch.catch(() => {}); // awaited after round 3; not unhandled if this round fails first
  const governors = TRUSTED_ISSUERS.has(first.mint)
    ? Promise.resolve([])
    : readGovernors(rpc, derivedAuthoritiesOf(first.decoded), signal);
  const pools = poolsOnceHeld(first.mint, derived, held);
  // Holders are traced beside round 3 (the pools), once every read of round 2 is in.
  const roundTwoDone = Promise.all([held, governors, pools, found]).then(([h]) => h);
  const insiders = gatherInsiderFacts(
    rpc,
    insiderInputs(first, roundTwoDone, launch, creator, facts),
    signal,
  );
  insiders.catch(() => {}); // awaited with round 3; not unhandled if this round fails first
  return { simulation, found, launch, governors, pools, insiders };
}

/** Every read of a token, round by round (see the header), and the extension's. */
export async function readToken<Found = undefined>(
  rpc: SolanaRpc,
  mint: Address,
  now: () => number,
  signal?: AbortSignal,
  extension?: ScanExtension<Found>,
  facts?: FactStore,
): Promise<TokenRead<Found>> {
  const send = signal ? { abortSignal: signal } : {};
  const derived = derivePools(mint);
  derived.catch(() => {}); // awaited in round 2; not unhandled if round 1 fails first
  const first = await roundOne(rpc, mint, extension?.withMint ?? [], send);
  const { held: holders } = await sendHoldersRead(rpc, first, send);
  const second = roundTwo(rpc, first, holders, derived, extension, signal, facts);
  const [held, governors, pools, thirdOfExtension] = await Promise.all([
    holders,
    second.governors,
    second.pools,
    second.found,
  ]);
  const view = viewAfterRound2(first, held, now);
  // Round 3, side by side; the launch's transactions, sent in round 2, are awaited with it.
  const [found, realms, liquidity, transferSimulation, launch] = await Promise.all([
    thirdOfExtension?.(),
    readRealms(rpc, governors, signal),
    gatherLiquidity(view, rpc, signal, discoverWith(view, pools)),
    second.simulation,
    second.launch,
  ]);
  const insiders = await second.insiders; // started in round 2 (insiders/facts.ts), bounded on its own
  const full: TokenView = { ...view, transferSimulation, governors: realms, launch, insiders };
  return { view: full, liquidity, found };
}
