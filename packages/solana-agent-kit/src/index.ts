/**
 * @solana-risk-scan/solana-agent-kit: Solana Risk Scan for solana-agent-kit v2. The default export
 * is the plugin configured from the kit's `config.OTHER_API_KEYS`; createRiskScanPlugin takes the
 * options directly.
 */
import { createRiskScanPlugin } from './plugin.js';

export type { ClientFor, ScanActionOutput, ScanMethods } from './actions.js';
export { CONFIG_KEYS, type RiskScanPluginOptions } from './options.js';
export { createRiskScanPlugin, type RiskScanPlugin } from './plugin.js';
export { type Judgement, refusalLine, TradeRefusedError } from './trade-guard.js';
export { type SigningWallet, walletSigner } from './wallet-signer.js';

/** The plugin configured from the kit's config (RISK_SCAN_API_URL, RISK_SCAN_PAY_TO, …). */
const RiskScanPlugin = createRiskScanPlugin();
export default RiskScanPlugin;
