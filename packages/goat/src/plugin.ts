/** The GOAT plugin: the risk-scan tools, for Solana wallets. */
import { type Chain, PluginBase } from '@goat-sdk/core';
import type { SolanaWalletClient } from '@goat-sdk/wallet-solana';
import { type RiskScanGoatOptions, RiskScanTools } from './tools.js';

export class RiskScanPlugin extends PluginBase<SolanaWalletClient> {
  constructor(options: RiskScanGoatOptions) {
    super('risk-scan', [new RiskScanTools(options)]);
  }

  /** The service is paid in USDC on Solana and scans Solana subjects. */
  supportsChain = (chain: Chain) => chain.type === 'solana';
}

/** The plugin for `getOnChainTools({ wallet, plugins: [riskScan({...})] })`. */
export const riskScan = (options: RiskScanGoatOptions) => new RiskScanPlugin(options);
