/** /scan/program/{id}: two round trips (a third only to read a Squads vault's multisig), then a pure assessment. */
import { address } from '@solana/kit';
import type { Scanner } from '../scanner.js';
import { assessProgram, upgradeAuthorityOf } from './assess.js';
import { gatherProgramFacts } from './facts.js';

export const scanProgram: Scanner = async (id, { rpc, now, signal }) => {
  const facts = await gatherProgramFacts(rpc, address(id), upgradeAuthorityOf, now, signal);
  return { result: assessProgram(facts) };
};
