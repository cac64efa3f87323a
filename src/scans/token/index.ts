/** /scan/token/{mint}: two round trips of token facts, then the pools (one more in the common case), then a pure assessment. */
import { address } from '@solana/kit';
import type { Scanner } from '../scanner.js';
import { assessToken } from './assess.js';
import { gatherTokenFacts } from './facts.js';
import { derivePools, discoverWith } from './liquidity/discover.js';
import { gatherLiquidity } from './liquidity/facts.js';

export const scanToken: Scanner = async (mint, { rpc, now, signal }) => {
  // The pool PDAs depend on the mint alone: derived while the second round is in flight.
  const { facts, extra } = await gatherTokenFacts(rpc, address(mint), now, {
    round2: () => derivePools(address(mint)),
    ...(signal ? { abortSignal: signal } : {}),
  });
  const discovery = discoverWith(facts, extra ?? (await derivePools(facts.mint)));
  // The third round: whatever needs the holders' accounts, side by side.
  const [liquidity] = await Promise.all([gatherLiquidity(facts, rpc, signal, discovery)]);
  return { result: assessToken(facts, undefined, liquidity) };
};
