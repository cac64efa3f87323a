/**
 * /scan/pumpfun/{mint}: three round trips (four when the creator's transactions show coins no other
 * source found), getProgramAccounts only where the RPC was probed to serve it; then a pure assessment.
 */
import { address } from '@solana/kit';
import type { Scanner } from '../scanner.js';
import { assessPumpfun } from './assess.js';
import { gatherPumpfunFacts } from './facts.js';

export const scanPumpfun: Scanner = async (mint, { rpc, now, signal, serves, verified, facts }) => ({
  result: assessPumpfun(await gatherPumpfunFacts(rpc, address(mint), now, signal, serves, facts), verified),
});
