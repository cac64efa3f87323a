/**
 * The solana-agent-kit v2 plugin: the six paid scans as actions and methods, paid from the agent's
 * own wallet by one client per agent (so one budget per agent), and a guard for the kit's trade
 * that spends from that same budget.
 */
import { DEFAULT_POLICY, type GatePolicy, RiskScanClient } from '@solana-risk-scan/client';
import type { Plugin, SolanaAgentKit } from 'solana-agent-kit';
import { type ScanMethods, scanActions, scanMethods } from './actions.js';
import { clientOptionsFor, type RiskScanPluginOptions } from './options.js';
import { guardTrade } from './trade-guard.js';
import { walletSigner } from './wallet-signer.js';

export interface RiskScanPlugin extends Plugin {
  readonly methods: ScanMethods;
  /** The client paying from `agent`'s wallet: its `spentUsd` and `remainingUsd` are the agent's. */
  clientFor(agent: SolanaAgentKit): RiskScanClient;
  /**
   * `tokenPlugin` (@solana-agent-kit/plugin-token's default export) with its `trade` method and
   * `TRADE` action refusing a swap into a token `policy` refuses; use it in place of the plugin.
   */
  guard<P extends Plugin>(tokenPlugin: P, policy?: GatePolicy): P;
}

export function createRiskScanPlugin(options: RiskScanPluginOptions = {}): RiskScanPlugin {
  const clients = new WeakMap<SolanaAgentKit, RiskScanClient>();
  const clientFor = (agent: SolanaAgentKit) => {
    let client = clients.get(agent);
    if (client === undefined) {
      client = new RiskScanClient({
        ...clientOptionsFor(agent, options),
        signer: walletSigner(agent.wallet),
      });
      clients.set(agent, client);
    }
    return client;
  };
  return {
    name: 'risk-scan',
    methods: scanMethods(clientFor),
    actions: scanActions(clientFor),
    // Made at once so that a plugin without its API URL or payee fails in `use`, not mid-conversation.
    initialize: (agent) => void clientFor(agent),
    clientFor,
    guard: (tokenPlugin, policy = options.policy ?? DEFAULT_POLICY) =>
      guardTrade(tokenPlugin, clientFor, policy),
  };
}
