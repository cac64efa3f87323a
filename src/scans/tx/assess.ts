/** Pure: transaction facts → ScanResult for /verify/tx. */
import type { ScanResult } from '../../contract/schemas.js';
import type { FlagHit } from '../risk/model.js';
import { buildResult, sameAdvice } from '../risk/result.js';
import {
  computeBudget,
  type DrainerShape,
  drainerShapes,
  failureOf,
  feeSplit,
  signerChanges,
  tokenChanges,
} from './anatomy.js';
import { decodeTransaction } from './decode.js';
import type { TxFacts } from './facts.js';
import { TX_FLAGS, type TxFlag } from './flags.js';
import { HIGH_FEE, LARGE_OUTFLOW, mostOf, sol } from './thresholds.js';

export const short = (s: string) => `${s.slice(0, 4)}…${s.slice(-4)}`;

const ADVICE = {
  proceed: 'The transaction did what it shows; you can rely on it as a record of success.',
  caution: 'Check the flagged points before treating this transaction as settled or harmless.',
  avoid: 'Do not treat this transaction as a successful or harmless action without understanding the flags.',
  do_not_interact:
    'This transaction hands control of assets to a third party or failed outright; do not sign anything like it, and treat affected accounts as compromised.',
} as const;

type Hit = FlagHit<TxFlag>;

/**
 * One hit per code: the first occurrence's evidence, plus every occurrence when the
 * transaction repeats a pattern (two approvals, several draining signers), so nothing is
 * dropped from the evidence.
 */
export function mergeRepeats<H extends FlagHit>(hits: readonly H[]): H[] {
  const byCode = new Map<string, H[]>();
  for (const hit of hits) byCode.set(hit.code, [...(byCode.get(hit.code) ?? []), hit]);
  return [...byCode.values()].map(([first, ...rest]) =>
    rest.length === 0
      ? first!
      : {
          ...first!,
          evidence: { ...first!.evidence, occurrences: [first!, ...rest].map((h) => h.evidence) },
          reason: `${first!.reason} (and ${rest.length} more like it)`,
        },
  );
}

/** The flag of a drainer shape, whether read from instructions (/verify/tx) or from state (/simulate/tx). */
export function shapeHit(shape: DrainerShape): Hit {
  switch (shape.kind) {
    case 'approve':
      return {
        code: 'TX_TOKEN_APPROVE_THIRD_PARTY',
        strength: 1,
        evidence: {
          token_account: shape.tokenAccount,
          delegate: shape.delegate,
          amount: String(shape.amount),
        },
        reason: `token account ${short(shape.tokenAccount)} approved ${shape.delegate} (not a signer) to spend ${shape.amount} units`,
      };
    case 'owner_change':
      return {
        code: 'TX_TOKEN_ACCOUNT_OWNER_CHANGED',
        strength: 1,
        evidence: { token_account: shape.tokenAccount, new_owner: shape.newOwner },
        reason: `ownership of token account ${short(shape.tokenAccount)} was given to ${shape.newOwner}, who did not sign`,
      };
    case 'system_assign':
      return {
        code: 'TX_SYSTEM_ASSIGN',
        strength: 1,
        evidence: { account: shape.account, program: shape.program },
        reason: `wallet ${short(shape.account)} was assigned to program ${shape.program}`,
      };
    case 'close_to_third_party':
      return {
        code: 'TX_CLOSE_TO_THIRD_PARTY',
        strength: 1,
        evidence: { token_account: shape.tokenAccount, destination: shape.destination },
        reason: `token account ${short(shape.tokenAccount)} was closed with its rent sent to ${shape.destination}`,
      };
    case 'durable_nonce':
      return {
        code: 'TX_DURABLE_NONCE',
        strength: 1,
        evidence: { nonce_account: shape.nonceAccount },
        reason: `it advances durable nonce ${short(shape.nonceAccount)}, so it could have been signed long before it was sent`,
      };
  }
}

function notFound(facts: TxFacts): ScanResult {
  return buildResult(
    {
      subject: `Transaction ${short(facts.signature)}`,
      hits: [
        {
          code: 'TX_NOT_FOUND',
          strength: 1,
          evidence: { signature: facts.signature },
          reason:
            'the RPC knows no transaction with this signature (not landed, dropped, or beyond its history)',
        },
      ],
      facts: { signature: facts.signature, found: false },
      advice: sameAdvice(
        'Treat the transaction as not having happened: do not release goods or funds against it.',
      ),
    },
    TX_FLAGS,
  );
}

type Signers = ReturnType<typeof signerChanges>;

/** A signer that sent out most of its SOL, or more than LARGE_OUTFLOW. */
function outflowHits(signers: Signers): Hit[] {
  const hits: Hit[] = [];
  for (const s of signers) {
    const outflow = -s.changeExcludingFee;
    const mostOfBalance = mostOf(outflow, s.pre);
    if (outflow > 0n && (mostOfBalance || outflow > LARGE_OUTFLOW)) {
      hits.push({
        code: 'TX_SIGNER_LARGE_SOL_OUTFLOW',
        strength: 1,
        evidence: {
          signer: s.signer,
          pre_lamports: String(s.pre),
          post_lamports: String(s.post),
          change_excluding_fee: String(s.changeExcludingFee),
        },
        reason: `signer ${short(s.signer)} sent out ${sol(outflow)} of its ${sol(s.pre)}`,
      });
    }
  }
  return hits;
}

/** The transaction's facts as the result shows them. */
function summaryOf(
  { signature, confirmation, keptAt }: TxFacts,
  tx: NonNullable<TxFacts['tx']>,
  read: {
    decoded: ReturnType<typeof decodeTransaction>;
    fees: ReturnType<typeof feeSplit>;
    budget: ReturnType<typeof computeBudget>;
    success: boolean;
    signers: Signers;
  },
) {
  const { decoded, fees, budget, success, signers } = read;
  const tokens = tokenChanges(tx);
  return {
    signature,
    found: true,
    success,
    slot: String(tx.slot),
    block_time: tx.blockTime === null ? null : new Date(tx.blockTime * 1000).toISOString(),
    confirmation_status: confirmation,
    // Where its facts came from: kept by an earlier scan, read at that slot (finalized then, so still).
    ...(keptAt === undefined ? {} : { from_kept_facts: { read_at_slot: keptAt } }),
    fee: { total: String(fees.total), base: String(fees.base), priority: String(fees.priority) },
    compute_units: {
      limit: String(budget.unitLimit),
      price_micro_lamports: String(budget.unitPriceMicroLamports),
      consumed: tx.computeUnitsConsumed === null ? null : String(tx.computeUnitsConsumed),
    },
    signers: signers.map((s) => ({
      address: s.signer,
      pre_lamports: String(s.pre),
      post_lamports: String(s.post),
      change: String(s.change),
      change_excluding_fee: String(s.changeExcludingFee),
    })),
    token_changes: tokens.map((t) => ({
      owner: t.owner,
      mint: t.mint,
      change: String(t.change),
      decimals: t.decimals,
    })),
    programs: [...new Set(decoded.instructions.map((ix) => ix.program))],
  };
}

export function assessTransaction(facts: TxFacts): ScanResult {
  const tx = facts.tx;
  if (tx === null) return notFound(facts);
  const decoded = decodeTransaction(tx.wire, tx.loadedAddresses);
  const fees = feeSplit(tx, decoded);
  const budget = computeBudget(decoded.instructions);
  const failure = failureOf(tx, decoded);
  const signers = signerChanges(tx, decoded);
  const hits: Hit[] = [];

  if (failure !== null) {
    hits.push({
      code: 'TX_FAILED',
      strength: 1,
      evidence: {
        err: failure.err,
        failed_instruction: failure.instruction,
        failed_program: failure.program,
        custom_code: failure.customCode,
      },
      reason: `it failed${failure.instruction === null ? '' : ` in instruction ${failure.instruction} (${failure.program})`}${failure.customCode === null ? '' : ` with custom error ${failure.customCode}`}; only the fee was charged`,
    });
  }
  if (facts.confirmation !== 'finalized') {
    hits.push({
      code: 'TX_NOT_FINALIZED',
      strength: 1,
      evidence: { confirmation_status: facts.confirmation },
      reason: `it is ${facts.confirmation ?? 'of unknown status'}, not finalized`,
    });
  }
  if (fees.total > HIGH_FEE) {
    hits.push({
      code: 'TX_HIGH_FEE',
      strength: 1,
      evidence: {
        fee_lamports: String(fees.total),
        priority_fee_lamports: String(fees.priority),
        compute_unit_price_micro_lamports: String(budget.unitPriceMicroLamports),
      },
      reason: `the fee was ${sol(fees.total)}, of which ${sol(fees.priority)} priority`,
    });
  }
  hits.push(...outflowHits(signers));
  for (const shape of drainerShapes(decoded)) hits.push(shapeHit(shape));

  return buildResult(
    {
      subject: `Transaction ${short(facts.signature)}`,
      hits: mergeRepeats(hits),
      facts: summaryOf(facts, tx, { decoded, fees, budget, success: failure === null, signers }),
      advice: ADVICE,
      notes: [
        failure === null ? 'it succeeded' : 'it failed',
        `fee ${sol(fees.total)}: ${sol(fees.base)} base for ${decoded.signatureCount} signature(s) and ${sol(fees.priority)} priority`,
        ...signers.map(
          (s) =>
            `signer ${short(s.signer)}: ${s.change >= 0n ? '+' : ''}${sol(s.change)} (${s.changeExcludingFee >= 0n ? '+' : ''}${sol(s.changeExcludingFee)} excluding the fee)`,
        ),
      ],
    },
    TX_FLAGS,
  );
}
