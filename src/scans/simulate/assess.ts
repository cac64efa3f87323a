/** Pure: simulation facts → ScanResult for /simulate/tx, in the words /verify/tx uses. */
import type { ScanResult } from '../../contract/schemas.js';
import type { FlagHit } from '../risk/model.js';
import { buildResult } from '../risk/result.js';
import {
  computeBudget,
  type DrainerShape,
  drainerShapes,
  failureOfError,
  LAMPORTS_PER_SIGNATURE,
} from '../tx/anatomy.js';
import { mergeRepeats, shapeHit, short } from '../tx/assess.js';
import { type DecodedTransaction, decodeTransaction } from '../tx/decode.js';
import { HIGH_FEE, LARGE_OUTFLOW, mostOf, sol } from '../tx/thresholds.js';
import { type Effects, effectsOf } from './effects.js';
import { customErrorName, errorName } from './errors.js';
import type { SimulateFacts } from './facts.js';
import { SIMULATE_FLAGS } from './flags.js';
import { type InvokedProgram, invokedPrograms } from './programs.js';
import { TOKEN_OUTFLOW_PERCENT } from './thresholds.js';

const LAST_LOGS = 8;
const signed = (n: bigint) => (n >= 0n ? `+${n}` : String(n));

const ADVICE = {
  proceed: 'The simulation shows nothing beyond what the transaction says; sign it only if you meant to.',
  caution: 'Check the flagged effects before signing: the transaction does more than a plain transfer.',
  avoid: 'Do not sign this transaction unless you understand and want each flagged effect.',
  do_not_interact:
    'Do not sign: this transaction would hand control of your assets to someone else or fail outright.',
} as const;

type Hit = FlagHit;

/** What the transaction would do: its state changes when it succeeds, its instructions when not. */
interface Reading {
  readonly decoded: DecodedTransaction;
  readonly err: unknown;
  readonly effects: Effects | null;
  readonly shapes: readonly DrainerShape[];
  readonly fee: bigint;
  readonly programs: readonly InvokedProgram[];
}

function read(facts: SimulateFacts): Reading {
  const decoded = decodeTransaction(facts.wire, facts.loaded ?? { writable: [], readonly: [] });
  const err =
    facts.missingTables.length > 0
      ? { AddressLookupTableNotFound: facts.missingTables }
      : (facts.simulation?.err ?? null);
  const fromInstructions = drainerShapes(decoded);
  const effects = err === null ? effectsOf(facts, decoded.signers) : null;
  // A nonce is a property of the message, not of any state: it is read from the instructions.
  const nonce = fromInstructions.filter((s) => s.kind === 'durable_nonce');
  const shapes = effects === null ? fromInstructions : [...effects.shapes, ...nonce];
  const budget = computeBudget(decoded.instructions);
  const fee =
    facts.simulation?.fee ??
    LAMPORTS_PER_SIGNATURE * BigInt(decoded.signers.length) + budget.requestedPriorityFee;
  const topLevel = decoded.instructions.map((ix) => ix.program);
  return { decoded, err, effects, shapes, fee, programs: invokedPrograms(facts, topLevel) };
}

function failureHit(facts: SimulateFacts, r: Reading): Hit | null {
  const failure = failureOfError(r.err, r.decoded);
  if (failure === null) return null;
  const name = customErrorName(failure.program, failure.customCode) ?? errorName(failure.err);
  const where =
    failure.instruction === null ? '' : ` in instruction ${failure.instruction} (${failure.program})`;
  return {
    code: 'SIM_WOULD_FAIL',
    strength: 1,
    evidence: {
      err: failure.err,
      failed_instruction: failure.instruction,
      failed_program: failure.program,
      custom_code: failure.customCode,
      error_name: name,
      last_logs: (facts.simulation?.logs ?? []).slice(-LAST_LOGS),
    },
    reason: `it would fail${where}${name === null ? '' : `: ${name}`}`,
  };
}

function solOutflowHits(r: Reading): Hit[] {
  return (r.effects?.sol ?? []).flatMap((s) => {
    const isPayer = s.address === r.decoded.signers[0];
    if (!r.decoded.signers.includes(s.address as never)) return [];
    const changeExcludingFee = isPayer ? s.change + r.fee : s.change;
    const outflow = -changeExcludingFee;
    const mostOfBalance = mostOf(outflow, s.pre);
    if (outflow <= 0n || !(mostOfBalance || outflow > LARGE_OUTFLOW)) return [];
    return [
      {
        code: 'TX_SIGNER_LARGE_SOL_OUTFLOW',
        strength: 1,
        evidence: {
          signer: s.address,
          pre_lamports: String(s.pre),
          post_lamports: String(s.post),
          change_excluding_fee: String(changeExcludingFee),
        },
        reason: `signer ${short(s.address)} would send out ${sol(outflow)} of its ${sol(s.pre)}`,
      },
    ];
  });
}

function tokenOutflowHits(r: Reading): Hit[] {
  const signers = new Set<string>(r.decoded.signers);
  return (r.effects?.tokens ?? []).flatMap((t) => {
    const lost = -t.change;
    if (!signers.has(t.owner) || lost <= 0n || lost * 100n <= t.pre * TOKEN_OUTFLOW_PERCENT) return [];
    return [
      {
        code: 'SIM_SIGNER_TOKEN_OUTFLOW',
        strength: 1,
        evidence: {
          owner: t.owner,
          token_account: t.tokenAccount,
          mint: t.mint,
          pre_amount: String(t.pre),
          post_amount: String(t.post),
        },
        reason: `signer ${short(t.owner)} would send out ${lost} of its ${t.pre} units of ${short(t.mint)}`,
      },
    ];
  });
}

function authorityHits(r: Reading): Hit[] {
  return (r.effects?.authorityHandovers ?? []).map((h) => ({
    code: 'SIM_MINT_AUTHORITY_HANDED_OVER',
    strength: 1,
    evidence: {
      mint: h.mint,
      authority_type: h.authorityType,
      previous_authority: h.previous,
      new_authority: h.newAuthority,
    },
    reason: `the ${h.authorityType} authority of mint ${short(h.mint)} would pass to ${h.newAuthority}, who did not sign`,
  }));
}

function programHits(r: Reading): Hit[] {
  const unknown = r.programs.filter((p) => !p.known);
  if (unknown.length === 0) return [];
  const hits: Hit[] = [
    {
      code: 'SIM_UNKNOWN_PROGRAM',
      strength: 1,
      evidence: {
        programs: unknown.map((p) => ({ program: p.program, upgrade_authority: p.upgradeAuthority })),
      },
      reason: `it invokes ${unknown.length} program(s) this service does not know: ${unknown.map((p) => short(p.program)).join(', ')}`,
    },
  ];
  for (const p of unknown) {
    if (p.upgradeAuthority === null) continue;
    hits.push({
      code: 'SIM_UPGRADEABLE_UNKNOWN_PROGRAM',
      strength: 1,
      evidence: { program: p.program, upgrade_authority: p.upgradeAuthority },
      reason: `unknown program ${short(p.program)} can be upgraded by ${short(p.upgradeAuthority)} at any time`,
    });
  }
  return hits;
}

function contextHits(facts: SimulateFacts, r: Reading): Hit[] {
  const hits: Hit[] = [];
  const { pre, simulated } = facts.slots;
  if (simulated !== null && simulated !== pre) {
    hits.push({
      code: 'SIM_STATE_SLOTS_DIFFER',
      strength: 1,
      evidence: { pre_slot: String(pre), simulated_slot: String(simulated) },
      reason: `the state before was read at slot ${pre}, the simulation ran at slot ${simulated}`,
    });
  }
  if (r.fee > HIGH_FEE) {
    hits.push({
      code: 'TX_HIGH_FEE',
      strength: 1,
      evidence: {
        fee_lamports: String(r.fee),
        priority_fee_lamports: String(computeBudget(r.decoded.instructions).requestedPriorityFee),
        compute_unit_price_micro_lamports: String(
          computeBudget(r.decoded.instructions).unitPriceMicroLamports,
        ),
      },
      reason: `its fee would be ${sol(r.fee)}`,
    });
  }
  return hits;
}

/** What each signer would see: SOL and every token account it owns. */
function signerFacts(r: Reading) {
  return r.decoded.signers.map((signer, i) => {
    const s = r.effects?.sol.find((c) => c.address === signer);
    const change = s?.change ?? 0n;
    return {
      address: signer,
      fee_payer: i === 0,
      pre_lamports: s === undefined ? null : String(s.pre),
      post_lamports: s === undefined ? null : String(s.post),
      change: String(change),
      change_excluding_fee: String(i === 0 ? change + r.fee : change),
      token_changes: (r.effects?.tokens ?? [])
        .filter((t) => t.owner === signer)
        .map((t) => ({
          token_account: t.tokenAccount,
          mint: t.mint,
          change: String(t.change),
          decimals: t.decimals,
        })),
    };
  });
}

function evidenceFacts(facts: SimulateFacts, r: Reading) {
  return {
    success: r.err === null,
    slots: {
      pre: String(facts.slots.pre),
      simulated: facts.slots.simulated === null ? null : String(facts.slots.simulated),
    },
    fee_lamports: String(r.fee),
    compute_units_consumed:
      facts.simulation?.unitsConsumed == null ? null : String(facts.simulation.unitsConsumed),
    signers: signerFacts(r),
    token_changes: (r.effects?.tokens ?? []).map((t) => ({
      owner: t.owner,
      token_account: t.tokenAccount,
      mint: t.mint,
      pre: String(t.pre),
      post: String(t.post),
      change: String(t.change),
      decimals: t.decimals,
    })),
    sol_changes: (r.effects?.sol ?? []).map((s) => ({ address: s.address, change: String(s.change) })),
    closed_accounts: (r.effects?.closed ?? []).map((c) => ({
      address: c.address,
      lamports: String(c.lamports),
      token_account: c.tokenAccount,
      destination: c.destination,
    })),
    programs: r.programs.map((p) => ({
      program: p.program,
      name: p.name,
      known: p.known,
      upgradeable: p.upgradeAuthority !== null,
      upgrade_authority: p.upgradeAuthority,
    })),
    lookup_tables_resolved: facts.loaded !== null,
  };
}

function notes(r: Reading): string[] {
  const lines = [r.err === null ? 'the simulation succeeded' : 'the simulation failed'];
  for (const s of signerFacts(r)) {
    lines.push(
      `signer ${short(s.address)}: ${signed(BigInt(s.change))} lamports${s.fee_payer ? ` (fee ${r.fee})` : ''}`,
    );
    for (const t of s.token_changes)
      lines.push(`signer ${short(s.address)}: ${signed(BigInt(t.change))} units of ${short(t.mint)}`);
  }
  return lines;
}

export function assessSimulation(facts: SimulateFacts): ScanResult {
  const r = read(facts);
  const failure = failureHit(facts, r);
  const hits: Hit[] = [
    ...(failure === null ? [] : [failure]),
    ...solOutflowHits(r),
    ...tokenOutflowHits(r),
    ...r.shapes.map(shapeHit),
    ...authorityHits(r),
    ...programHits(r),
    ...contextHits(facts, r),
  ];
  return buildResult(
    {
      subject: `Transaction of ${short(r.decoded.signers[0] ?? '?')}`,
      hits: mergeRepeats(hits),
      facts: evidenceFacts(facts, r),
      advice: ADVICE,
      notes: notes(r),
    },
    SIMULATE_FLAGS,
  );
}
