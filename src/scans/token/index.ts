/**
 * /scan/token/{mint}: two round trips, then a pure assessment; a third only for mints whose
 * transfers run code the static read cannot judge (a transfer hook: the simulated transfer) or
 * when an authority is a verified SPL Governance governance (its realm's name). A young
 * token's first transactions (launch forensics) are read in the second, beside the holders.
 */
import { address } from '@solana/kit';
import type { Scanner } from '../scanner.js';
import { assessToken } from './assess.js';
import { gatherTokenFacts } from './facts.js';
import { derivedAuthoritiesOf, readGovernors, readRealms } from './governors.js';
import { gatherLaunchFacts } from './launch/facts.js';
import { simulateTransferRounds, simulationReads } from './transfer-simulation/facts.js';
import { TRUSTED_ISSUERS } from './trusted.js';

export const scanToken: Scanner = async (subject, { rpc, now, signal }) => {
  const mint = address(subject);
  const send = signal ? { abortSignal: signal } : {};
  const { facts, extra } = await gatherTokenFacts(rpc, mint, now, {
    ...send,
    alsoRead: simulationReads,
    round2: async (first) => {
      const [simulation, governors, launch] = await Promise.all([
        simulateTransferRounds(rpc, first, send),
        // A trusted issuer's own words win: no need to look behind its authorities.
        TRUSTED_ISSUERS.has(mint)
          ? Promise.resolve([])
          : readGovernors(rpc, derivedAuthoritiesOf(first.mintAccount, first.metadataAccount), signal),
        gatherLaunchFacts({ mint, history: first.history }, rpc, signal),
      ]);
      return { simulation, governors, launch };
    },
  });
  const governors = await readRealms(rpc, extra?.governors ?? [], signal);
  const launch = extra?.launch;
  return {
    result: assessToken({
      ...facts,
      transferSimulation: extra?.simulation ?? null,
      governors,
      ...(launch ? { launch } : {}),
    }),
  };
};
