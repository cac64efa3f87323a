/**
 * The transfer simulation's RPC work, fitted around the token scan's rounds:
 *   round 2 (in the holders' getMultipleAccounts): the hook's validation account, if there is a hook;
 *   round 3: `simulateTransaction` of a wallet's transfer from the largest eligible holders
 *            (`sigVerify: false`, `replaceRecentBlockhash: true`), with the post-state of the
 *            source and destination token accounts.
 * Mints whose static read proves the answer (planTransferSimulation) cost nothing more.
 *
 * Fee payer: a mainnet account that always holds SOL (src/solana/funded-wallet.ts), not the
 * holder's owner. Signatures are not verified, so the holder's owner still authorises the
 * transfer without its key, but it need not exist nor hold SOL: a holder whose wallet has no
 * system account is simulated like any other, and the only thing left that can refuse is the
 * token (its program, its hook). A hook cannot see who pays: Token-2022 passes it the transfer's
 * accounts and the extra ones its validation account lists, never the fee payer. The second
 * eligible holder, simulated in the same round, covers a first holder whose transfer cannot be
 * built (a hook seed the scan did not read).
 */
import type { Address, Base64EncodedWireTransaction } from '@solana/kit';
import { errorMessage } from '../../../errors.js';
import { decodeTokenAccount } from '../../../solana/decoders/token-account.js';
import { SIMULATION_FEE_PAYER } from '../../../solana/funded-wallet.js';
import { findExtraAccountMetaListAddress } from '../../../solana/program-address.js';
import type { SolanaRpc } from '../../../solana/rpc.js';
import { concentration } from '../../token-facts/holders.js';
import type {
  HeldBy,
  MintView,
  RawAccount,
  SimulatedTransfer,
  TransferSimulationFacts,
} from '../../token-facts/model.js';
import { freshOwner, transferTransaction } from './message.js';
import { planTransferSimulation, type SimulationPlan } from './plan.js';

/** Holders simulated in parallel: the second is the fallback when the first's transfer cannot be built. */
export const SIMULATED_HOLDERS = 2;

type Send = { abortSignal?: AbortSignal };

interface Prepared {
  readonly plan: SimulationPlan;
  readonly decimals: number;
  readonly validationAddress: Address | null;
}

async function prepare(mintAccount: RawAccount | null, decoded: MintView): Promise<Prepared | null> {
  if (mintAccount === null || decoded.mint === null || decoded.notMint !== null) return null;
  const plan = planTransferSimulation(decoded.mint);
  const validationAddress =
    plan.simulate && plan.hookProgram !== null
      ? (
          await findExtraAccountMetaListAddress({ mint: mintAccount.address, hookProgram: plan.hookProgram })
        )[0]
      : null;
  return { plan, decimals: decoded.mint.decimals, validationAddress };
}

/** Round 2 (../schedule.ts): the hook's validation account, read with the holders. */
export async function simulationReads(
  mintAccount: RawAccount | null,
  decoded: MintView,
): Promise<readonly Address[]> {
  const prepared = await prepare(mintAccount, decoded);
  return prepared?.validationAddress ? [prepared.validationAddress] : [];
}

function amountOf(account: { owner: Address; data: readonly [string, string] } | null | undefined) {
  if (!account) return null;
  const decoded = decodeTokenAccount(new Uint8Array(Buffer.from(account.data[0], 'base64')), account.owner);
  return decoded.ok ? decoded.value.amount : null;
}

/** Candidates: the largest holders that are not pools, curves, locks or burns, nor frozen. */
function candidates(mint: RawAccount, { holders, read }: HeldBy) {
  const accounts = read.accounts;
  const excluded = new Set(concentration(holders, 0n).excluded.map((e) => e.token_account));
  return holders
    .map((h, i) => ({ holder: h, account: accounts[i] ?? null }))
    .filter(
      ({ holder, account }) =>
        account !== null &&
        account.owner === mint.owner &&
        holder.owner !== null &&
        !holder.frozen &&
        holder.amount > 0n &&
        !excluded.has(holder.tokenAccount),
    )
    .slice(0, SIMULATED_HOLDERS) as { holder: { owner: Address; amount: bigint }; account: RawAccount }[];
}

interface Built {
  readonly source: RawAccount;
  readonly holder: { owner: Address; amount: bigint };
  readonly amount: bigint;
  readonly wire: string;
  readonly destination: Address;
}

async function build(
  prepared: Prepared & { plan: { simulate: true } },
  validation: RawAccount | null,
  mint: RawAccount,
  source: RawAccount,
  holder: { owner: Address; amount: bigint },
): Promise<Built> {
  // One whole token, or the balance when smaller: what a buyer would sell, not a whale's exit.
  const unit = 10n ** BigInt(prepared.decimals);
  const amount = holder.amount < unit ? holder.amount : unit;
  const { wire, destination } = await transferTransaction({
    mint,
    decimals: prepared.decimals,
    source,
    owner: holder.owner,
    feePayer: SIMULATION_FEE_PAYER,
    amount,
    recipient: freshOwner(),
    hookProgram: prepared.plan.hookProgram,
    validation: prepared.validationAddress === null ? null : validation,
  });
  return { source, holder, amount, wire, destination };
}

async function simulate(rpc: SolanaRpc, built: Built, send: Send): Promise<SimulatedTransfer> {
  const { value } = await rpc
    .simulateTransaction(built.wire as Base64EncodedWireTransaction, {
      encoding: 'base64',
      sigVerify: false,
      replaceRecentBlockhash: true,
      accounts: { addresses: [built.source.address, built.destination], encoding: 'base64' },
    })
    .send(send);
  const [after, received] = value.accounts ?? [];
  return {
    tokenAccount: built.source.address,
    owner: built.holder.owner,
    balance: built.holder.amount,
    amount: built.amount,
    destination: built.destination,
    err: value.err ?? null,
    logs: value.logs ?? [],
    sourceAfter: amountOf(after),
    destinationAfter: amountOf(received),
  };
}

export interface SimulationInput {
  readonly mintAccount: RawAccount | null;
  readonly decoded: MintView;
  /** Round 2's read: the largest holders' accounts (owners decoded), and what simulationReads asked for. */
  readonly holders: Promise<HeldBy>;
}

/** Rounds 2 and 3 of the simulation; never throws (what fails is said in the facts). */
export async function simulateTransferRounds(
  rpc: SolanaRpc,
  input: SimulationInput,
  send: Send = {},
): Promise<TransferSimulationFacts | null> {
  const mint = input.mintAccount;
  const [prepared, held] = await Promise.all([prepare(mint, input.decoded), input.holders]);
  const holders = held.read;
  if (mint === null || prepared === null) return null;
  const { plan } = prepared;
  if (!plan.simulate) return { status: 'skipped', why: plan.why };
  const unavailable = (reason: string) => ({ status: 'unavailable' as const, why: plan.why, reason });
  if (prepared.validationAddress !== null && holders.also === null) {
    return unavailable("the holders' accounts and the hook's validation account could not be read");
  }
  const chosen = candidates(mint, held);
  if (chosen.length === 0) {
    return unavailable(
      holders.largest.length === 0
        ? 'no holder could be read to send from'
        : 'no eligible holder to send from (every large holder is a pool, curve, lock, burn or frozen, or unreadable)',
    );
  }
  // Every transaction is built before any is sent, so the simulations share one round trip.
  const built = await Promise.allSettled(
    chosen.map(({ holder, account }) =>
      build({ ...prepared, plan }, holders.also?.[0] ?? null, mint, account, holder),
    ),
  );
  const runs = await Promise.allSettled(
    built.map((b) => (b.status === 'fulfilled' ? simulate(rpc, b.value, send) : Promise.reject(b.reason))),
  );
  const done = runs.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  if (done.length === 0) {
    const first = runs.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    return unavailable(`the simulation could not run: ${errorMessage(first?.reason)}`);
  }
  return { status: 'simulated', why: plan.why, hookProgram: plan.hookProgram, runs: done };
}
