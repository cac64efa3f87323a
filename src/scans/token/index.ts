/** /scan/token/{mint}: two round trips of token facts, then the pools (one more in the common case), then a pure assessment. */
import { address } from '@solana/kit';
import type { Scanner } from '../scanner.js';
import { assessToken } from './assess.js';
import { gatherTokenFacts } from './facts.js';
import { gatherLiquidity } from './liquidity/facts.js';

export const scanToken: Scanner = async (mint, { rpc, now, signal }) => {
  const { facts } = await gatherTokenFacts(rpc, address(mint), now, signal ? { abortSignal: signal } : {});
  // The third round: whatever needs the holders' accounts, side by side.
  const [liquidity] = await Promise.all([gatherLiquidity(facts, rpc, signal)]);
  return { result: assessToken(facts, undefined, liquidity) };
};
