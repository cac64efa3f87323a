/**
 * /scan/token/{mint}: two round trips, then a pure assessment; a third only for mints whose
 * transfers run code the static read cannot judge (a transfer hook: the simulated transfer) or
 * when an authority is a verified SPL Governance governance (its realm's name).
 */
import { address } from '@solana/kit';
import type { Scanner } from '../scanner.js';
import { assessToken } from './assess.js';
import { gatherTokenFacts } from './facts.js';
import { derivedAuthoritiesOf, readGovernors, readRealms } from './governors.js';
import { simulateTransferRounds, simulationReads } from './transfer-simulation/facts.js';
import { TRUSTED_ISSUERS } from './trusted.js';

export const scanToken: Scanner = async (mint, { rpc, now, signal }) => {
  const send = signal ? { abortSignal: signal } : {};
  const { facts, extra } = await gatherTokenFacts(rpc, address(mint), now, {
    ...send,
    alsoRead: simulationReads,
    round2: async (first) => {
      const [simulation, governors] = await Promise.all([
        simulateTransferRounds(rpc, first, send),
        // A trusted issuer's own words win: no need to look behind its authorities.
        TRUSTED_ISSUERS.has(mint)
          ? Promise.resolve([])
          : readGovernors(rpc, derivedAuthoritiesOf(first.mintAccount, first.metadataAccount), signal),
      ]);
      return { simulation, governors };
    },
  });
  const governors = await readRealms(rpc, extra?.governors ?? [], signal);
  return { result: assessToken({ ...facts, transferSimulation: extra?.simulation ?? null, governors }) };
};
