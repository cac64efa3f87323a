/** /scan/wallet/{address}: two round trips, then a pure assessment. */
import { address } from '@solana/kit';
import type { Scanner } from '../scanner.js';
import { assessWallet } from './assess.js';
import { gatherWalletFacts } from './facts.js';

export const scanWallet: Scanner = async (subject, { rpc, now, signal, facts }) => ({
  result: assessWallet(await gatherWalletFacts(rpc, address(subject), now, signal, facts)),
});
