/**
 * `risk-scan mcp`: an MCP server over stdio for hosts that cannot pay themselves. It publishes the
 * same tools as the API's /mcp, and each call pays the HTTP API from a local keypair exactly as
 * `risk-scan call` does (payAndCall, through the client package: the offer read and held to the
 * pinned payee and the catalog's price, the cap checked and the payer's funds seen before
 * anything is signed; the result's signature checked before it is given). A call over the per-call cap, or past the session's budget, is
 * refused without paying. `simulate_tx` POSTs its transaction as the body `{"transaction": …}`.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SessionBudget, usdcUnits } from '@solana-risk-scan/client';
import { concretePath, orderPriceUsd, type PaidEndpoint } from '../catalog.js';
import { failureLine } from '../client/failures.js';
import { payAndCall } from '../client/pay.js';
import { type ErrorBody, paramReason } from '../contract/schemas.js';
import { checkBody } from '../door/admission.js';
import { errorResult, scanResult } from './results.js';
import { createToolServer } from './tool-server.js';
import { toolInput } from './tools.js';

export interface PayingServerOptions {
  readonly api?: string;
  readonly rpc?: string;
  readonly keypair?: string;
  /** The service's payee: a 402 naming another is refused, unpaid. */
  readonly payTo?: string;
  /** Most a single call may cost, in USDC. */
  readonly maxUsd: number;
  /** Most all calls of this session may cost together, in USDC; null = no limit but the per-call cap. */
  readonly budgetUsd: number | null;
  readonly sandboxDir: string;
  readonly timeoutS: number;
}

/** The budget cannot cover the live price of a call: thrown before its payment is sent. */
class OverBudget extends Error {
  constructor(readonly priceUsd: number) {
    super('over --budget-usd');
  }
}

const refusal = (error: string, message: string, parameter?: string): CallToolResult =>
  errorResult({ error, message, ...(parameter === undefined ? {} : { parameter }) });

/** The API's own error body (`{"error", "message", …}`): every such status means not charged (src/errors.ts). */
function isApiError(body: unknown): body is ErrorBody {
  const said = body as Partial<ErrorBody> | null;
  return typeof said?.error === 'string' && typeof said.message === 'string';
}

/** The API's error answer (400, 500, …) as the tool's error: its body when it is the API's error JSON. */
function apiError(status: number, body: unknown): CallToolResult {
  if (isApiError(body)) {
    const fields = Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string');
    return errorResult(Object.fromEntries(fields));
  }
  return refusal('call_failed', `The API answered HTTP ${status} without an error body.`);
}

/**
 * The request a tool's arguments become: a GET of the subject's path, or a POST of the body, with
 * what it costs; or why it is refused (in the API's own words, before anything is paid).
 */
function toolRequest(
  endpoint: PaidEndpoint,
  args: Readonly<Record<string, unknown>>,
):
  | { readonly path: string; readonly data?: string; readonly priceUsd: number }
  | { readonly problem: string; readonly parameter: string } {
  if (endpoint.method === 'POST') {
    const data = toolInput(endpoint, args);
    const checked = checkBody(endpoint, data);
    if (!checked.ok) return { problem: checked.reason.text, parameter: endpoint.body.field };
    return { path: endpoint.path, data, priceUsd: checked.purchase.priceUsd };
  }
  const { name, kind } = endpoint.param;
  const value = toolInput(endpoint, args);
  // Checked before the value becomes part of a URL path, with the API's own words.
  const problem = paramReason(name, kind, value);
  return problem === null
    ? { path: concretePath(endpoint, value), priceUsd: orderPriceUsd(endpoint) }
    : { problem: problem.text, parameter: name };
}

const budgetSpent = (priceUsd: number, budget: SessionBudget) =>
  refusal(
    'budget_spent',
    `The call costs ${priceUsd} USDC and this session has ${budget.left()} USDC left of --budget-usd; nothing was paid. Restart the MCP server to start a new budget.`,
  );

/** One paid tool call: the argument checked here, then paid for and fetched over HTTP. */
export async function payForTool(
  options: PayingServerOptions,
  budget: SessionBudget,
  endpoint: PaidEndpoint,
  args: Readonly<Record<string, unknown>>,
): Promise<CallToolResult> {
  const checked = toolRequest(endpoint, args);
  if ('problem' in checked)
    return refusal('invalid_input', `${checked.problem}; nothing was paid`, checked.parameter);
  const { priceUsd, ...request } = checked;
  const allowance = budget.hold(usdcUnits(priceUsd), options.maxUsd);
  if (allowance === null) return budgetSpent(priceUsd, budget);
  let paidUsd: number | null = null;
  // A call that fails after its payment left may still have been charged: counted as spent.
  let sentUsd: number | null = null;
  let overBudgetUsd = 0;
  try {
    const outcome = await payAndCall({
      ...options,
      ...request,
      // Thrown here, before the payment is sent: nothing leaves that the budget cannot cover.
      onPaymentSent: (usd) => {
        if (!budget.charge(allowance, usdcUnits(usd))) throw new OverBudget(usd);
        sentUsd = usd;
      },
    });
    // Only the API's own error, with no receipt, says nothing was charged; anything else (a
    // proxy's 502 after the API settled) counts against the budget.
    paidUsd = outcome.paidUsd ?? (outcome.settlement === null && isApiError(outcome.body) ? null : sentUsd);
    if (outcome.status === 200) {
      return scanResult(JSON.stringify(outcome.body), outcome.settlement as Record<string, unknown> | null);
    }
    return apiError(outcome.status, outcome.body);
  } catch (e) {
    paidUsd = sentUsd;
    if (!(e instanceof OverBudget)) return refusal('call_failed', failureLine(e));
    overBudgetUsd = e.priceUsd;
  } finally {
    budget.release(allowance, paidUsd);
  }
  // Worded once the call's hold is given back, so "left" is what the session has.
  return budgetSpent(overBudgetUsd, budget);
}

export const PAYING_INSTRUCTIONS =
  'Each paid tool costs the USDC price in its description; this server pays it from its own keypair (x402, USDC on Solana) and returns its result. Calls above the per-call cap or past the session budget are refused without paying. list_endpoints is free.';

/** Serves the tools on stdin/stdout until the host closes stdin. */
export async function servePayingMcp(options: PayingServerOptions): Promise<void> {
  const budget = new SessionBudget(options.budgetUsd === null ? null : usdcUnits(options.budgetUsd));
  const server = createToolServer({
    howPaid: `paid from this MCP server's keypair (at most ${options.maxUsd} USDC per call)`,
    instructions: PAYING_INSTRUCTIONS,
    call: (endpoint, args) => payForTool(options, budget, endpoint, args),
  });
  await server.connect(new StdioServerTransport());
}
