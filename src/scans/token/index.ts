/**
 * /scan/token/{mint}: two round trips, then a pure assessment. A young token's first
 * transactions (launch forensics) are read in the second, beside the holders' accounts.
 */
import { address } from '@solana/kit';
import type { Scanner } from '../scanner.js';
import { assessToken } from './assess.js';
import { gatherTokenFacts } from './facts.js';
import { gatherLaunchFacts } from './launch/facts.js';

export const scanToken: Scanner = async (subject, { rpc, now, signal }) => {
  const mint = address(subject);
  const { facts, extra } = await gatherTokenFacts(rpc, mint, now, {
    ...(signal ? { abortSignal: signal } : {}),
    round2: ({ history }) => gatherLaunchFacts({ mint, history }, rpc, signal),
  });
  return { result: assessToken(extra ? { ...facts, launch: extra } : facts) };
};
