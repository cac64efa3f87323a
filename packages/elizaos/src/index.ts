/** @solana-risk-scan/elizaos: the Solana Risk Scan API's paid scans as an elizaOS plugin. */

import { SCAN_ACTIONS } from './actions.js';
import type { Plugin } from './eliza-types.js';
import { verdictProvider } from './provider.js';
import { sessionOf } from './session.js';

export const riskScanPlugin: Plugin = {
  name: 'risk-scan',
  description:
    'Paid Solana risk scans (token, pump.fun, wallet, transaction, program, simulation) with a pinned payee ' +
    'and a budget, and the latest verdict on a token in the context.',
  // Opened at start so a missing or wrong setting stops the agent with its name, not its first trade.
  init: async (_config, runtime) => {
    await sessionOf(runtime);
  },
  actions: [...SCAN_ACTIONS],
  providers: [verdictProvider],
};

export default riskScanPlugin;
export { SCAN_ACTIONS } from './actions.js';
export type { Action, ActionResult, AgentRuntime, Plugin, Provider } from './eliza-types.js';
export { RISK_VERDICT_PROVIDER, verdictProvider } from './provider.js';
export { RiskScanSession, sessionOf, type TokenVerdict } from './session.js';
export { SETTINGS } from './settings.js';
