/**
 * Pure: the simulated transfer → flag hits. A transfer the token program refused is blocked; one
 * that went through but delivered less than the amount minus the declared transfer fee lost the
 * difference to something undeclared. A simulation that could not run (no eligible holder, the
 * RPC refused, the simulation's fee payer cannot pay) only lowers confidence.
 */
import type { DecodedMint, TransferFee } from '../../../solana/decoders/mint.js';
import { transferFeeAt } from '../../../solana/decoders/mint.js';
import type { FlagHit } from '../../risk/model.js';
import type { SimulatedTransfer, TransferSimulationFacts } from '../../token-facts/model.js';
import type { TokenFlag } from '../flags.js';
import { UNDECLARED_CUT_CRITICAL } from '../thresholds.js';
import { isTransactionLevel, readFailure } from './errors.js';

type Hit = FlagHit<TokenFlag>;
/** Log lines kept in evidence: the end of the logs, where the failure is. */
export const EVIDENCE_LOG_LINES = 8;
/** Instruction of the transfer in the simulated transaction (0 creates the recipient's account). */
const TRANSFER_INSTRUCTION = 1;

/** Token-2022's fee on `amount`: ceil(amount × bps / 10 000), capped at the maximum fee. */
export function transferFeeOn(amount: bigint, fee: TransferFee | null): bigint {
  if (fee === null || fee.basisPoints === 0 || amount === 0n) return 0n;
  const raw = (amount * BigInt(fee.basisPoints) + 9_999n) / 10_000n;
  return raw < fee.maximumFee ? raw : fee.maximumFee;
}

/** The fee in force; with the epoch unknown, the higher of the two (the most it can explain). */
function declaredFee(mint: DecodedMint, epoch: bigint | null, amount: bigint): bigint {
  const config = mint.extensions.transferFeeConfig;
  if (!config) return 0n;
  if (epoch !== null) return transferFeeOn(amount, transferFeeAt(config, epoch));
  const older = transferFeeOn(amount, config.olderTransferFee);
  const newer = transferFeeOn(amount, config.newerTransferFee);
  if (older > newer) return older;
  return newer;
}

type Outcome =
  | { kind: 'blocked'; run: SimulatedTransfer }
  | { kind: 'transferred'; run: SimulatedTransfer }
  | { kind: 'not-run'; run: SimulatedTransfer; reason: string };

function outcomeOf(run: SimulatedTransfer): Outcome {
  if (run.err === null) return { kind: 'transferred', run };
  const failure = readFailure(run.err, run.logs);
  if (isTransactionLevel(run.err)) {
    return {
      kind: 'not-run',
      run,
      reason: `the transaction could not run (${failure.error}): it failed before any instruction ran (the fee payer could not pay), which says nothing about the token`,
    };
  }
  if (failure.instruction !== TRANSFER_INSTRUCTION) {
    return {
      kind: 'not-run',
      run,
      reason: `creating the recipient's token account failed (${failure.error})`,
    };
  }
  return { kind: 'blocked', run };
}

function blockedHit(run: SimulatedTransfer): Hit {
  const failure = readFailure(run.err, run.logs);
  return {
    code: 'TRANSFER_BLOCKED',
    strength: 1,
    evidence: {
      failing_program: failure.program,
      error: failure.error,
      logs: run.logs.slice(-EVIDENCE_LOG_LINES),
      holder: run.tokenAccount,
      amount: String(run.amount),
    },
    reason: `a simulated transfer of the token from a real holder to a new wallet failed in ${failure.program ?? 'the token program'}: ${failure.error}`,
  };
}

function cutHit(run: SimulatedTransfer, mint: DecodedMint, epoch: bigint | null): Hit | null {
  if (run.destinationAfter === null) return null;
  // The amount asked for, not the source's fall: the holder's balance was read two rounds
  // earlier and may have moved since; the fresh destination shows exactly what arrived.
  const sent = run.amount;
  const fee = declaredFee(mint, epoch, sent);
  const cut = sent - fee - run.destinationAfter;
  if (cut <= 0n) return null;
  const share = sent > 0n ? Number((cut * 10_000n) / sent) / 10_000 : 0;
  return {
    code: 'TRANSFER_UNDECLARED_CUT',
    strength: 1,
    severity: share >= UNDECLARED_CUT_CRITICAL ? 'critical' : 'high',
    evidence: {
      sent: String(sent),
      received: String(run.destinationAfter),
      declared_fee: String(fee),
      undeclared_cut: String(cut),
      holder: run.tokenAccount,
    },
    reason: `a simulated transfer of ${sent} units delivered ${run.destinationAfter}: ${cut} more than the declared fee (${fee}) went missing`,
  };
}

export interface SimulationCheck {
  readonly hits: Hit[];
  readonly summary: Record<string, unknown> | null;
}

export function transferSimulationHits(
  facts: TransferSimulationFacts | null | undefined,
  mint: DecodedMint,
  epoch: bigint | null,
): SimulationCheck {
  if (facts === null || facts === undefined) return { hits: [], summary: null };
  if (facts.status === 'skipped') return { hits: [], summary: { ran: false, why: facts.why } };
  const unavailable = (reason: string): SimulationCheck => ({
    hits: [
      {
        code: 'TRANSFER_SIMULATION_UNAVAILABLE',
        strength: 1,
        evidence: { reason },
        reason: `whether the token can be transferred was not simulated: ${reason}`,
      },
    ],
    summary: { ran: false, why: facts.why, unavailable: reason },
  });
  if (facts.status === 'unavailable') return unavailable(facts.reason);
  const outcomes = facts.runs.map(outcomeOf);
  // A refusal for any real holder is the answer; otherwise the first transfer that went through.
  const decisive =
    outcomes.find((o) => o.kind === 'blocked') ?? outcomes.find((o) => o.kind === 'transferred');
  if (decisive === undefined) {
    return unavailable(outcomes.map((o) => (o.kind === 'not-run' ? o.reason : o.kind)).join('; '));
  }
  const { run } = decisive;
  const hit = decisive.kind === 'blocked' ? blockedHit(run) : cutHit(run, mint, epoch);
  return {
    hits: hit ? [hit] : [],
    summary: {
      ran: true,
      why: facts.why,
      outcome: decisive.kind,
      holder: run.tokenAccount,
      amount: String(run.amount),
      received: run.destinationAfter === null ? null : String(run.destinationAfter),
    },
  };
}
