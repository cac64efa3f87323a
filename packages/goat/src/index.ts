/** @solana-risk-scan/goat: the Solana Risk Scan API's paid scans as GOAT tools. */
export { RiskScanPlugin, riskScan } from './plugin.js';
export { type RiskScanAnswer, type RiskScanGoatOptions, RiskScanTools } from './tools.js';
export { goatWalletSigner } from './wallet-signer.js';
