/**
 * A guard around the kit's trade (the `trade` method and `TRADE` action of
 * @solana-agent-kit/plugin-token): before the swap, the token it buys is scanned (a paid token
 * scan from the agent's wallet) and judged by the policy. A token the policy refuses (by default,
 * decision `avoid` or `do_not_interact`) is never swapped into, and the refusal says why; any
 * other goes on to the kit's own trade. A scan that fails refuses too: unknown is never safe.
 */
import {
  type GatePolicy,
  type GateVerdict,
  gate,
  type Paid,
  type ScanResult,
} from '@solana-risk-scan/client';
import type { Action, Plugin, SolanaAgentKit } from 'solana-agent-kit';
import type { ClientFor } from './actions.js';

export interface Judgement {
  readonly mint: string;
  readonly verdict: GateVerdict;
  /** The paid scan the verdict is on; null when the token could not be scanned. */
  readonly scan: Paid<ScanResult> | null;
}

/** What the guarded `trade` method throws instead of swapping. */
export class TradeRefusedError extends Error {
  override readonly name = 'TradeRefusedError';
  readonly code = 'TRADE_REFUSED';
  constructor(readonly judgement: Judgement) {
    super(refusalLine(judgement));
  }
}

/** One line a model or a person can act on: what was refused, the gate's reasons, the scan's own words. */
export function refusalLine({ mint, verdict, scan }: Judgement): string {
  const line = `Swap into ${mint} refused by the risk scan: ${verdict.reasons.join('; ')}.`;
  if (scan === null) return line;
  const { summary, flags, risk_score } = scan.result;
  return `${line} ${summary} (risk_score ${risk_score}; flags: ${flags.join(', ') || 'none'})`;
}

type TradeMethod = (agent: SolanaAgentKit, outputMint: unknown, ...rest: unknown[]) => Promise<unknown>;

/** `tokenPlugin` with its trade method and TRADE action guarded; everything else as it was. */
export function guardTrade<P extends Plugin>(tokenPlugin: P, clientFor: ClientFor, policy: GatePolicy): P {
  const trade = tokenPlugin.methods.trade as TradeMethod | undefined;
  const action = tokenPlugin.actions.find((a) => a.name === 'TRADE');
  if (typeof trade !== 'function' || action === undefined)
    throw new Error(`the plugin "${tokenPlugin.name}" has no trade method and TRADE action to guard`);
  const judge = (agent: SolanaAgentKit, mint: string) => judgeSwapInto(clientFor(agent), mint, policy);
  return {
    ...tokenPlugin,
    methods: { ...tokenPlugin.methods, trade: guardedMethod(trade, judge) },
    actions: tokenPlugin.actions.map((a) => (a === action ? guardedAction(action, judge) : a)),
  };
}

type Judge = (agent: SolanaAgentKit, mint: string) => Promise<Judgement>;

async function judgeSwapInto(
  client: ReturnType<ClientFor>,
  mint: string,
  policy: GatePolicy,
): Promise<Judgement> {
  try {
    const scan = await client.scanToken(mint);
    return { mint, verdict: gate(scan.result, policy), scan };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      mint,
      verdict: { allow: false, decision: null, reasons: [`the token could not be scanned: ${why}`] },
      scan: null,
    };
  }
}

function guardedMethod(trade: TradeMethod, judge: Judge): TradeMethod {
  return async function guardedTrade(this: unknown, agent, outputMint, ...rest) {
    const judgement = await judge(agent, String(outputMint));
    if (!judgement.verdict.allow) throw new TradeRefusedError(judgement);
    return trade.call(this, agent, outputMint, ...rest);
  };
}

function guardedAction(action: Action, judge: Judge): Action {
  return {
    ...action,
    description: `${action.description} Before swapping, the token bought is risk-scanned (paid from the agent's wallet) and the swap is refused when the scan advises against it, with the reasons.`,
    handler: async (agent, input) => {
      const judgement = await judge(agent, String(input.outputMint));
      if (!judgement.verdict.allow) return refusal(judgement);
      return action.handler(agent, input);
    },
  };
}

function refusal(judgement: Judgement) {
  const { mint, verdict, scan } = judgement;
  return {
    status: 'error',
    code: 'TRADE_REFUSED',
    message: refusalLine(judgement),
    outputMint: mint,
    decision: verdict.decision,
    reasons: verdict.reasons,
    scan: scan?.result ?? null,
    paidUsd: scan?.paidUsd ?? 0,
  };
}
