/**
 * /scan/token/{mint}: two round trips of token facts, then the pools (a third in the common case),
 * then a pure assessment. The second also carries a young token's first transactions (launch
 * forensics, which the third does not wait for) and the governing accounts behind
 * program-derived authorities; a transfer hook's simulated transfer, and a Realms DAO's name,
 * take a round of their own.
 */
import { address } from '@solana/kit';
import { derivePools, discoverWith, poolsOnceHeld, withHeldVaults } from '../liquidity/discover.js';
import { gatherLiquidity } from '../liquidity/facts.js';
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
  // The pool PDAs depend on the mint alone: derived (CPU) while the first rounds are in flight.
  const derived = derivePools(mint);
  derived.catch(() => {}); // awaited below; not unhandled if round 1 fails first
  // The simulation waits for round 2's holders, then runs beside the pools in round 3.
  let simulation: ReturnType<typeof simulateTransferRounds> = Promise.resolve(null);
  const { facts, extra } = await gatherTokenFacts(rpc, mint, now, {
    ...send,
    alsoRead: simulationReads,
    round2: async (first) => {
      simulation = simulateTransferRounds(rpc, first, send);
      simulation.catch(() => {}); // awaited below; not unhandled if round 2 fails first
      // The launch's transactions feed no later read: round 3 leaves without waiting for them.
      const launch = gatherLaunchFacts({ mint, history: first.history }, rpc, signal);
      launch.catch(() => {}); // awaited after round 3; not unhandled if this round fails first
      const [governors, pools] = await Promise.all([
        // A trusted issuer's own words win: no need to look behind its authorities.
        TRUSTED_ISSUERS.has(mint)
          ? Promise.resolve([])
          : readGovernors(rpc, derivedAuthoritiesOf(first.mintAccount, first.metadataAccount), signal),
        // The vault PDAs the holders call for are derived while the rest of the round is in flight.
        poolsOnceHeld(mint, derived, first.holders),
      ]);
      return { governors, launch: { pending: launch }, pools };
    },
  });
  const discovery = discoverWith(facts, extra?.pools ?? (await withHeldVaults(facts, await derived)));
  // The third round: whatever needs the holders' accounts, side by side.
  const [governors, liquidity, transferSimulation, launch] = await Promise.all([
    readRealms(rpc, extra?.governors ?? [], signal),
    gatherLiquidity(facts, rpc, signal, discovery),
    simulation,
    extra?.launch.pending,
  ]);
  const full = {
    ...facts,
    transferSimulation: transferSimulation ?? null,
    governors,
    ...(launch ? { launch } : {}),
  };
  return { result: assessToken(full, undefined, liquidity) };
};
