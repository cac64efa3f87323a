/** Pure: wallet facts → ScanResult for /scan/wallet. */
import type { ScanResult } from '../../contract/schemas.js';
import { isOnCurveAddress } from '../../solana/address-curve.js';
import { SYSTEM_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../../solana/programs.js';
import type { FlagHit } from '../risk/model.js';
import { buildResult, sameAdvice } from '../risk/result.js';
import { HISTORY_LIMIT, type WalletFacts } from './facts.js';
import { WALLET_FLAGS, type WalletFlag } from './flags.js';
import {
  DAY,
  DRAINED,
  FAILURE_RATE,
  FEW_TRANSACTIONS,
  FRESH_WALLET_S,
  HOUR,
  QUICK_FIRST_ACTION_S,
} from './thresholds.js';

type Hit = FlagHit<WalletFlag>;
const short = (s: string) => `${s.slice(0, 4)}…${s.slice(-4)}`;
const iso = (t: number) => new Date(t * 1000).toISOString();
const sol = (l: bigint) => `${(Number(l) / 1e9).toFixed(4).replace(/\.?0+$/, '')} SOL`;

const ADVICE = {
  proceed: 'An established wallet with an ordinary history; transact as usual.',
  caution: 'Little or unusual history: limit what you send or release to this wallet until it proves itself.',
  avoid: 'Burner-like or failing wallet: do not send funds or grant it anything you cannot lose.',
  do_not_interact: 'Do not transact with this address.',
} as const;

export type AccountKind =
  | 'wallet'
  | 'token_account'
  | 'mint'
  | 'program'
  | 'program_account'
  | 'pda'
  | 'none';

export function accountKind(facts: WalletFacts): AccountKind {
  const a = facts.account;
  if (a === null) return isOnCurveAddress(facts.address) ? 'none' : 'pda';
  if (a.executable) return 'program';
  if (a.owner === TOKEN_PROGRAM || a.owner === TOKEN_2022_PROGRAM)
    return a.dataLength === 82 ? 'mint' : a.dataLength >= 165 ? 'token_account' : 'mint';
  if (a.owner !== SYSTEM_PROGRAM) return 'program_account';
  return isOnCurveAddress(facts.address) ? 'wallet' : 'pda';
}

function burnerHits(facts: WalletFacts): Hit[] {
  const hits: Hit[] = [];
  const moves = [...facts.moves].sort((a, b) => (a.blockTime ?? 0) - (b.blockTime ?? 0));
  const funding = moves.find((m) => m.post > m.pre);
  if (funding === undefined) return hits;
  const afterFunding = moves.filter((m) => m !== funding && (m.blockTime ?? 0) >= (funding.blockTime ?? 0));
  const firstAction = afterFunding.find((m) => m.signer);
  if (firstAction && funding.blockTime !== null && firstAction.blockTime !== null) {
    const seconds = firstAction.blockTime - funding.blockTime;
    if (seconds <= QUICK_FIRST_ACTION_S) {
      hits.push({
        code: 'QUICK_FIRST_ACTION',
        strength: 1,
        evidence: {
          funding_signature: funding.signature,
          first_action_signature: firstAction.signature,
          seconds_after_funding: seconds,
        },
        reason: `it acted ${seconds} seconds after it was funded`,
      });
    }
  }
  const drain = afterFunding
    .filter((m) => m.signer && m.post < m.pre)
    .sort((a, b) => Number(b.pre - b.post - (a.pre - a.post)))[0];
  const received = funding.post - funding.pre;
  const balance = facts.account?.lamports ?? 0n;
  const drained = drain ? drain.pre - drain.post : 0n;
  if (
    drain &&
    drained * 100n >= received * DRAINED.sentPercent &&
    balance * 100n < received * DRAINED.keptUnderPercent
  ) {
    hits.push({
      code: 'FUNDED_THEN_DRAINED',
      strength: 1,
      evidence: {
        funding_signature: funding.signature,
        drain_signature: drain.signature,
        drained_lamports: String(drain.pre - drain.post),
        balance_lamports: String(balance),
      },
      reason: `it received ${sol(received)} and then sent out ${sol(drain.pre - drain.post)}, keeping ${sol(balance)}`,
    });
  }
  return hits;
}

function activityHits(facts: WalletFacts, history: NonNullable<WalletFacts['history']>): Hit[] {
  const hits: Hit[] = [];
  const truncated = history.length >= HISTORY_LIMIT;
  if (truncated) {
    hits.push({
      code: 'HISTORY_TRUNCATED',
      strength: 1,
      evidence: { transactions_read: history.length },
      reason: `only its latest ${history.length} transactions were read`,
    });
  }
  const first = history.at(-1)?.blockTime ?? null;
  if (!truncated && first !== null) {
    const age = facts.nowSeconds - first;
    if (age < FRESH_WALLET_S.any) {
      hits.push({
        code: 'FRESH_WALLET',
        strength: age < FRESH_WALLET_S.strongest ? 1 : 0.5,
        evidence: { first_seen: iso(first), age_hours: Math.round((age / HOUR) * 10) / 10 },
        reason: `it first appeared ${age < 2 * DAY ? `${Math.round(age / HOUR)} hours` : `${Math.round(age / DAY)} days`} ago`,
      });
    }
  }
  if (!truncated && history.length < FEW_TRANSACTIONS) {
    hits.push({
      code: 'FEW_TRANSACTIONS',
      strength: 1,
      evidence: { transactions: history.length },
      reason: `it has only ${history.length} transaction(s)`,
    });
  }
  const failed = history.filter((h) => h.failed).length;
  const rate = history.length === 0 ? 0 : failed / history.length;
  if (history.length >= FAILURE_RATE.minTransactions && rate >= FAILURE_RATE.warn) {
    hits.push({
      code: 'HIGH_FAILURE_RATE',
      strength: Math.min(1, rate / FAILURE_RATE.full),
      evidence: { failed, total: history.length, failure_rate: Math.round(rate * 1000) / 1000 },
      reason: `${failed} of its ${history.length} recent transactions failed`,
    });
  }
  return hits;
}

export function assessWallet(facts: WalletFacts): ScanResult {
  const kind = accountKind(facts);
  const notAWallet = kind !== 'wallet' && kind !== 'none';
  const subject = `${notAWallet ? 'Address' : 'Wallet'} ${short(facts.address)}`;
  const history = facts.history;
  const hits: Hit[] = [];
  if (notAWallet) {
    hits.push({
      code: 'NOT_A_WALLET',
      strength: 1,
      evidence: { account_kind: kind, owner: facts.account?.owner ?? null },
      reason: `the address is a ${kind.replace('_', ' ')}, not a wallet`,
    });
  }
  if (history === null) {
    hits.push({
      code: 'HISTORY_UNAVAILABLE',
      strength: 1,
      evidence: { reason: facts.historyError ?? 'unknown' },
      reason: 'its history could not be read',
    });
  } else if (kind === 'none' && history.length === 0) {
    hits.push({
      code: 'WALLET_UNUSED',
      strength: 1,
      evidence: { address: facts.address },
      reason: 'no account and no transaction exist for it',
    });
  } else {
    hits.push(...activityHits(facts, history), ...burnerHits(facts));
  }
  const failed = history?.filter((h) => h.failed).length ?? null;
  return buildResult(
    {
      subject,
      hits,
      facts: {
        address: facts.address,
        account_kind: kind,
        balance_lamports: String(facts.account?.lamports ?? 0n),
        transactions_read: history?.length ?? null,
        failed_transactions: failed,
        first_seen: history?.at(-1)?.blockTime != null ? iso(history.at(-1)!.blockTime!) : null,
        last_seen: history?.[0]?.blockTime != null ? iso(history[0]!.blockTime!) : null,
        // Where its transactions' moves came from: kept by an earlier scan, with the slots they were read at.
        ...(facts.kept ? { from_kept_facts: facts.kept } : {}),
      },
      advice: notAWallet
        ? sameAdvice(
            `This address is a ${kind.replace('_', ' ')}, not a wallet: do not send funds to it or treat it as a counterparty's wallet.`,
          )
        : ADVICE,
      notes:
        history === null
          ? []
          : [
              `${history.length} transaction(s) read, ${failed} failed; balance ${sol(facts.account?.lamports ?? 0n)}`,
            ],
    },
    WALLET_FLAGS,
  );
}
