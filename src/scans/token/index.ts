/**
 * /scan/token/{mint}: the token's reads, round by round (./schedule.ts: two round trips of token
 * facts, then the pools, a third in the common case), then a pure assessment of the decoded view.
 */
import { address } from '@solana/kit';
import type { Scanner } from '../scanner.js';
import { assessToken } from './assess.js';
import { readToken } from './schedule.js';

export const scanToken: Scanner = async (subject, { rpc, now, signal }) => {
  const { view, liquidity } = await readToken(rpc, address(subject), now, signal);
  return { result: assessToken(view, undefined, liquidity) };
};
