/** /scan/token/{mint}: two round trips, then a pure assessment. */
import { address } from '@solana/kit';
import type { Scanner } from '../scanner.js';
import { assessToken } from './assess.js';
import { gatherTokenFacts } from './facts.js';

export const scanToken: Scanner = async (mint, { rpc, now, signal }) => {
  const { facts } = await gatherTokenFacts(rpc, address(mint), now, signal ? { abortSignal: signal } : {});
  return { result: assessToken(facts) };
};
