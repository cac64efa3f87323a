/**
 * /scan/token/{mint}: two round trips (a third only when an authority is a verified SPL
 * Governance governance, for its realm's name), then a pure assessment.
 */
import { address } from '@solana/kit';
import type { Scanner } from '../scanner.js';
import { assessToken } from './assess.js';
import { gatherTokenFacts } from './facts.js';
import { derivedAuthoritiesOf, readGovernors, readRealms } from './governors.js';
import { TRUSTED_ISSUERS } from './trusted.js';

export const scanToken: Scanner = async (mint, { rpc, now, signal }) => {
  const { facts, extra } = await gatherTokenFacts(rpc, address(mint), now, {
    // A trusted issuer's own words win: no need to look behind its authorities.
    round2: ({ mintAccount, metadataAccount }) =>
      TRUSTED_ISSUERS.has(mint)
        ? Promise.resolve([])
        : readGovernors(rpc, derivedAuthoritiesOf(mintAccount, metadataAccount), signal),
    ...(signal ? { abortSignal: signal } : {}),
  });
  const governors = await readRealms(rpc, extra ?? [], signal);
  return { result: assessToken({ ...facts, governors }) };
};
