/**
 * `risk-scan mcp`: an MCP server over stdio for hosts that cannot pay themselves. It publishes the
 * same tools as the API's /mcp, and each call pays the HTTP API from a local keypair exactly as
 * `risk-scan call` does (payAndCall: the offer read, the cap checked and the payer's funds seen
 * before anything is signed). A call over the per-call cap, or past the session's budget, is
 * refused without paying.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { atomicPrice, concretePath, type GetEndpoint } from '../catalog.js';
import { payAndCall } from '../cli/call.js';
import { describeFailure, unexpectedFailure } from '../cli/failures.js';
import { type ErrorBody, paramProblem } from '../contract/schemas.js';
import { errorResult, scanResult } from './results.js';
import { createToolServer } from './tool-server.js';

export interface PayingServerOptions {
  readonly api?: string;
  readonly rpc?: string;
  readonly keypair?: string;
  /** Most a single call may cost, in USDC. */
  readonly maxUsd: number;
  /** Most all calls of this session may cost together, in USDC; null = no limit but the per-call cap. */
  readonly budgetUsd: number | null;
  readonly sandboxDir: string;
  readonly timeoutS: number;
}

const units = (usd: number) => BigInt(atomicPrice(usd));
const usdText = (atomic: bigint) => (Number(atomic) / 1e6).toString();

/** What one call may pay: `cap` in USDC, and the part of the budget it holds meanwhile. */
export interface Allowance {
  readonly cap: number;
  readonly held: bigint;
}

/** What the session may still spend; a call holds its price while it runs, so calls in parallel cannot overspend. */
export class SessionBudget {
  private held = 0n;
  constructor(private readonly limit: bigint | null) {}

  /** The allowance of a call costing `price`, or null when the budget cannot cover it. */
  hold(price: bigint, maxUsd: number): Allowance | null {
    if (this.limit === null) return { cap: maxUsd, held: 0n };
    const left = this.limit - this.held;
    // Over the per-call cap, the call is refused as such by payAndCall, from the live offer.
    if (price > units(maxUsd)) return { cap: maxUsd, held: 0n };
    if (price > left) return null;
    this.held += price;
    // The cap also bounds an offer dearer than this build's catalog by what the budget has left.
    return { cap: Math.min(maxUsd, Number(left) / 1e6), held: price };
  }

  /** Ends a call: what it paid stays spent, the rest of its hold is given back. */
  release(allowance: Allowance, paidUsd: number | null): void {
    if (this.limit === null) return;
    this.held += (paidUsd === null ? 0n : units(paidUsd)) - allowance.held;
  }

  left(): string {
    return this.limit === null ? 'unlimited' : usdText(this.limit - this.held);
  }
}

const failureText = (e: unknown) => describeFailure(e, null)?.line ?? unexpectedFailure(e);

const refusal = (error: string, message: string, parameter?: string): CallToolResult =>
  errorResult({ error, message, ...(parameter === undefined ? {} : { parameter }) });

/** The API's error answer (400, 500, …) as the tool's error: its body when it is the API's error JSON. */
function apiError(status: number, body: unknown): CallToolResult {
  const said = body as Partial<ErrorBody> | null;
  if (typeof said?.error === 'string' && typeof said.message === 'string') {
    const fields = Object.entries(said).filter((e): e is [string, string] => typeof e[1] === 'string');
    return errorResult(Object.fromEntries(fields));
  }
  return refusal('call_failed', `The API answered HTTP ${status} without an error body.`);
}

/** One paid tool call: the subject checked here, then paid for and fetched over HTTP. */
export async function payForTool(
  options: PayingServerOptions,
  budget: SessionBudget,
  endpoint: GetEndpoint,
  value: string,
): Promise<CallToolResult> {
  const { name, kind } = endpoint.param;
  // Checked before the value becomes part of a URL path, with the API's own words.
  const problem = paramProblem(kind, value);
  if (problem !== null) return refusal('invalid_input', `${name} ${problem}; nothing was paid`, name);
  const price = units(endpoint.priceUsd);
  const allowance = budget.hold(price, options.maxUsd);
  if (allowance === null) {
    return refusal(
      'budget_spent',
      `The call costs ${endpoint.priceUsd} USDC and this session has ${budget.left()} USDC left of --budget-usd; nothing was paid. Restart the MCP server to start a new budget.`,
    );
  }
  let paidUsd: number | null = null;
  // A call that fails after its payment left may still have been charged: counted as spent.
  let sentUsd: number | null = null;
  try {
    const outcome = await payAndCall({
      ...options,
      path: concretePath(endpoint, value),
      maxUsd: allowance.cap,
      onPaymentSent: (usd) => {
        sentUsd = usd;
      },
    });
    paidUsd = outcome.paidUsd;
    if (outcome.status === 200) {
      return scanResult(JSON.stringify(outcome.body), outcome.settlement as Record<string, unknown> | null);
    }
    return apiError(outcome.status, outcome.body);
  } catch (e) {
    paidUsd = sentUsd;
    return refusal('call_failed', failureText(e));
  } finally {
    budget.release(allowance, paidUsd);
  }
}

export const PAYING_INSTRUCTIONS =
  'Each scan tool costs the USDC price in its description; this server pays it from its own keypair (x402, USDC on Solana) and returns the ScanResult. Calls above the per-call cap or past the session budget are refused without paying. list_endpoints is free.';

/** Serves the tools on stdin/stdout until the host closes stdin. */
export async function servePayingMcp(options: PayingServerOptions): Promise<void> {
  const budget = new SessionBudget(options.budgetUsd === null ? null : units(options.budgetUsd));
  const server = createToolServer({
    howPaid: `paid from this MCP server's keypair (at most ${options.maxUsd} USDC per call)`,
    instructions: PAYING_INSTRUCTIONS,
    call: (endpoint, value) => payForTool(options, budget, endpoint, value),
  });
  await server.connect(new StdioServerTransport());
}
