/** /scan/pumpfun/{mint}: three round trips (no getProgramAccounts), then a pure assessment. */
import { address } from '@solana/kit';
import type { Scanner } from '../scanner.js';
import { assessPumpfun } from './assess.js';
import { gatherPumpfunFacts } from './facts.js';

export const scanPumpfun: Scanner = async (mint, { rpc, now, signal }) => ({
  result: assessPumpfun(await gatherPumpfunFacts(rpc, address(mint), now, signal)),
});
