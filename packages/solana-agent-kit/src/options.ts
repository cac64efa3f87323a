/**
 * How the plugin is configured: options given to createRiskScanPlugin, or, for the default
 * export, the kit's own configuration (`config.OTHER_API_KEYS`, where the kit's plugins read
 * their keys). The payer is always the agent's wallet; the RPC defaults to the agent's.
 */
import type { GatePolicy, RiskScanClientOptions } from '@solana-risk-scan/client';
import type { SolanaAgentKit } from 'solana-agent-kit';

export interface RiskScanPluginOptions
  extends Omit<RiskScanClientOptions, 'signer' | 'rpcUrl' | 'apiUrl' | 'payTo'> {
  /** The API's origin, e.g. https://scan.example.com. */
  readonly apiUrl?: string;
  /** The service's payee, pinned: a 402 naming another payee is refused and nothing is paid. */
  readonly payTo?: string;
  /** The RPC the payment is built against; default the agent's own (`agent.connection`). */
  readonly rpcUrl?: string;
  /** What the trade guard lets through; default the client's DEFAULT_POLICY (avoid or worse is refused). */
  readonly policy?: GatePolicy;
}

/** The keys read from `config.OTHER_API_KEYS` when an option is not given. */
export const CONFIG_KEYS = {
  apiUrl: 'RISK_SCAN_API_URL',
  payTo: 'RISK_SCAN_PAY_TO',
  budgetUsd: 'RISK_SCAN_BUDGET_USD',
  maxPerCallUsd: 'RISK_SCAN_MAX_PER_CALL_USD',
} as const;

/** The client's options for this agent, less its signer: the options first, then the kit's config. */
export function clientOptionsFor(
  agent: SolanaAgentKit,
  options: RiskScanPluginOptions,
): Omit<RiskScanClientOptions, 'signer'> {
  const keys = agent.config?.OTHER_API_KEYS ?? {};
  const apiUrl = options.apiUrl ?? keys[CONFIG_KEYS.apiUrl];
  const payTo = options.payTo ?? keys[CONFIG_KEYS.payTo];
  if (!apiUrl || !payTo)
    throw new Error(
      `The risk scan plugin needs the API URL and its pinned payee: pass apiUrl and payTo to createRiskScanPlugin, or set ${CONFIG_KEYS.apiUrl} and ${CONFIG_KEYS.payTo} in the kit's config.OTHER_API_KEYS`,
    );
  const { policy: _policy, ...clientOptions } = options;
  return {
    ...clientOptions,
    apiUrl,
    payTo,
    rpcUrl: options.rpcUrl ?? agent.connection.rpcEndpoint,
    ...usd('budgetUsd', options.budgetUsd, keys[CONFIG_KEYS.budgetUsd]),
    ...usd('maxPerCallUsd', options.maxPerCallUsd, keys[CONFIG_KEYS.maxPerCallUsd]),
  };
}

/** An amount in USD from the options, or from a config string; absent leaves the client's default. */
function usd(name: 'budgetUsd' | 'maxPerCallUsd', given: number | undefined, configured: string | undefined) {
  if (given !== undefined) return { [name]: given };
  if (configured === undefined) return {};
  const value = Number(configured);
  if (!Number.isFinite(value) || value < 0)
    throw new Error(`${CONFIG_KEYS[name]} must be an amount in USD, not "${configured}"`);
  return { [name]: value };
}
