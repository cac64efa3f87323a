/** @solana-risk-scan/ai-sdk: Solana Risk Scan's paid scans as Vercel AI SDK tools. */
export { type RiskScanTools, type RiskScanToolsOptions, riskScanTools } from './tools.js';
