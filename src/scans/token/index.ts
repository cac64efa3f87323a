/**
 * /scan/token/{mint}: two round trips (a third only when an authority is a verified SPL
 * Governance governance, for its realm's name), then a pure assessment.
 */
import { address } from '@solana/kit';
import type { Scanner } from '../scanner.js';
import { assessToken } from './assess.js';
import { gatherTokenFacts } from './facts.js';
import { derivedAuthoritiesOf, readGovernors, readRealms } from './governors.js';

export const scanToken: Scanner = async (mint, { rpc, now, signal }) => {
  const { facts, extra } = await gatherTokenFacts(rpc, address(mint), now, {
    round2: ({ mintAccount, metadataAccount }) =>
      readGovernors(rpc, derivedAuthoritiesOf(mintAccount, metadataAccount), signal),
    ...(signal ? { abortSignal: signal } : {}),
  });
  const governors = await readRealms(rpc, extra ?? [], signal);
  return { result: assessToken({ ...facts, governors }) };
};
