/**
 * Pyth's SOL/USD price account at its mainnet address, owned by the Pyth Solana Receiver, in the
 * PriceUpdateV2 layout: the dollars the token scans value trade sizes in. The sandbox keeps SOL at
 * SANDBOX_SOL_USD, published as the chain is seeded.
 */
import {
  PYTH_RECEIVER_PROGRAM,
  PYTH_SOL_USD_ACCOUNT,
  PYTH_SOL_USD_FEED_ID,
} from '../../solana/decoders/pyth-price-update.js';
import { encodePriceUpdateV2 } from './builders/trade-layouts.js';
import type { ScenarioContext } from './context.js';

/** $150.00 per SOL, as Pyth states it: 15 000 000 000 × 10^−8, ±$0.08. */
export const SANDBOX_SOL_USD = { price: 15_000_000_000n, conf: 8_000_000n, exponent: -8 } as const;

export async function seedSolUsdPrice(context: ScenarioContext): Promise<void> {
  const writer = await context.keys.signer('pyth:write-authority');
  const data = encodePriceUpdateV2({
    writeAuthority: writer.address,
    feedIdHex: PYTH_SOL_USD_FEED_ID,
    ...SANDBOX_SOL_USD,
    publishTime: BigInt(Math.floor(Date.now() / 1000)),
    postedSlot: 1n,
  });
  context.chain.setAccount({
    address: PYTH_SOL_USD_ACCOUNT,
    lamports: context.chain.minimumBalanceForRentExemption(data.length),
    data,
    owner: PYTH_RECEIVER_PROGRAM,
  });
}
