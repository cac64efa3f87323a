/** Concentrated-liquidity ownership flags, part of LIQUIDITY_FLAGS. Never rename or remove a code. */
import type { FlagCatalog } from '../risk/model.js';
import { percent } from '../risk/numbers.js';
import { OPTIONAL_SEARCH_MS, OWNER_CONCENTRATED, OWNERS_RESOLVED } from './thresholds.js';

export const POSITION_FLAGS = {
  LIQUIDITY_OWNER_CONCENTRATED: {
    severity: 'high',
    meaning: `One wallet (a single key) owns positions holding ${percent(OWNER_CONCENTRATED.warn)} or more of a concentrated pool's liquidity (full strength at ${percent(OWNER_CONCENTRATED.full)}): it can withdraw that share at once. Measured on Orca Whirlpool and Raydium CLMM as in-range liquidity (the positions trading at the current price, where a seller meets them; L compares between positions only there), on Meteora DLMM as the position's liquidity shares over all its bins (value in the quote token at each bin's price). Whirlpool and CLMM owners are resolved through the position NFT for the ${OWNERS_RESOLVED} largest in-range positions only, so the share is a lower bound; positions held by a program (a locker, a vault) do not count as a wallet's.`,
    evidenceKeys: ['pool', 'dex', 'owner', 'share', 'measure', 'positions_counted', 'owner_positions'],
  },
  LIQUIDITY_OWNERS_UNAVAILABLE: {
    severity: 'info',
    meaning: `The positions of a concentrated pool could not be listed (the RPC refused or failed the filtered getProgramAccounts on the DEX program, or did not answer it within ${OPTIONAL_SEARCH_MS / 1000} s), the pool could not be read, or the owners of its largest positions could not be looked up: who owns its liquidity is unknown. Lowers confidence, not risk.`,
    evidenceKeys: ['reason', 'pools'],
    confidencePenalty: 0.05,
  },
} as const satisfies FlagCatalog;
