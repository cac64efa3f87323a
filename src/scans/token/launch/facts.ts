/**
 * Launch forensics, the reads: getTransaction for the mint's first transactions, found in the
 * history page the token facts read in round 1, all in parallel. They need nothing else, and no
 * later read needs them, so the scans send them in round 2, beside the holders' accounts, and let
 * round 3 leave without them: no round trip of their own, and no wait for the slowest of them. Nothing
 * is read unless that page reaches the mint's creation (not truncated); otherwise the facts say
 * why. Current balances come from the largest holders already read, and funding from the launch
 * transactions themselves (docs/risk-model.md, launch forensics).
 */
import { errorMessage } from '../../../errors.js';
import type { SolanaRpc } from '../../../solana/rpc.js';
import type { FactStore } from '../../fact-store.js';
import { keptSummary, readTransaction } from '../../token-facts/kept-transactions.js';
import type { LaunchFacts, LaunchTransaction, TokenFacts } from '../../token-facts/model.js';
import { LAUNCH_WINDOW_SLOTS } from '../thresholds.js';
import { decodeLaunchTransaction } from './decode.js';

/** Most transactions read per scan (all in parallel, the earliest first): the creation and two Jito bundles of 5, a burst rate-limited providers let through. */
export const MAX_LAUNCH_TRANSACTIONS = 10;

/** Why the launch cannot be read from this history page, or null when it can. */
function notRunReason(history: TokenFacts['history']): string | null {
  if (history === null) return 'the mint’s history could not be read';
  if (history.truncated)
    return 'the mint has more history than one page (1000 transactions) reaches: its launch is not read';
  if (history.entries === undefined || history.entries.length === 0)
    return 'the RPC knows no transaction naming the mint';
  return null;
}

export async function gatherLaunchFacts(
  facts: Pick<TokenFacts, 'mint' | 'history'>,
  rpc: SolanaRpc,
  signal?: AbortSignal,
  options: { readonly creator?: string | null; readonly facts?: FactStore | undefined } = {},
): Promise<LaunchFacts> {
  const reason = notRunReason(facts.history);
  const entries = facts.history?.entries ?? [];
  if (reason !== null) return { status: 'not-run', reason };
  const firstSlot = Math.min(...entries.map((e) => e.slot));
  // The page is newest first: reversed, and sorted stably by slot, it is oldest first throughout.
  const window = [...entries]
    .reverse()
    .filter((e) => !e.failed && e.slot <= firstSlot + LAUNCH_WINDOW_SLOTS)
    .sort((a, b) => a.slot - b.slot);
  const chosen = window.slice(0, MAX_LAUNCH_TRANSACTIONS);
  const send = signal ? { abortSignal: signal } : {};
  let error: string | null = null;
  const reads = await Promise.all(
    chosen.map((e) =>
      readTransaction(rpc, options.facts, e.signature, e.finalized === true, send).catch((err: unknown) => {
        error ??= errorMessage(err);
        return null;
      }),
    ),
  );
  const answers = reads.map((r) =>
    r === null || r.tx === null ? null : decodeLaunchTransaction(r.tx, facts.mint),
  );
  const transactions = answers.filter((t): t is LaunchTransaction => t !== null);
  return {
    status: 'read',
    firstSlot,
    inWindow: window.length,
    transactions,
    unread: window.length - transactions.length,
    error,
    creator: options.creator ?? null,
    kept: keptSummary(reads),
  };
}
