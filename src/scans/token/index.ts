/**
 * /scan/token/{mint}: two round trips, a third for young tokens (launch forensics: the mint's
 * first transactions), then a pure assessment.
 */
import { address } from '@solana/kit';
import type { Scanner } from '../scanner.js';
import { assessToken } from './assess.js';
import { gatherTokenFacts } from './facts.js';
import { gatherLaunchFacts } from './launch/facts.js';

export const scanToken: Scanner = async (mint, { rpc, now, signal }) => {
  const { facts } = await gatherTokenFacts(rpc, address(mint), now, signal ? { abortSignal: signal } : {});
  // Round 3: only young tokens read anything here (an old one's history page is truncated).
  const [launch] = await Promise.all([gatherLaunchFacts(facts, rpc, signal)]);
  return { result: assessToken({ ...facts, launch }) };
};
