/**
 * /scan/token/{mint}: two round trips, then a pure assessment; a third (the simulated transfer)
 * only for mints whose transfers run code the static read cannot judge (a transfer hook).
 */
import { address } from '@solana/kit';
import type { Scanner } from '../scanner.js';
import { assessToken } from './assess.js';
import { gatherTokenFacts } from './facts.js';
import { simulateTransferRounds, simulationReads } from './transfer-simulation/facts.js';

export const scanToken: Scanner = async (mint, { rpc, now, signal }) => {
  const send = signal ? { abortSignal: signal } : {};
  const { facts, extra } = await gatherTokenFacts(rpc, address(mint), now, {
    ...send,
    alsoRead: simulationReads,
    round2: (first) => simulateTransferRounds(rpc, first, send),
  });
  return { result: assessToken({ ...facts, transferSimulation: extra ?? null }) };
};
