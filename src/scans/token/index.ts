/**
 * /scan/token/{mint}: the token's reads, round by round (./schedule.ts: two round trips of token
 * facts, then the pools, a third in the common case), with the mint's pump.fun curve read beside
 * the mint and, for a pump.fun mint, its creator's history (./pumpfun-creator.ts); then a pure
 * assessment of the decoded view.
 */
import { address } from '@solana/kit';
import type { Scanner } from '../scanner.js';
import { assessToken } from './assess.js';
import { pumpfunCreatorReads } from './pumpfun-creator.js';
import { readToken } from './schedule.js';

export const scanToken: Scanner = async (
  subject,
  { rpc, now, signal, serves, askServes, verified, facts },
) => {
  const mint = address(subject);
  // What the RPC serves is asked only for a pump.fun mint's history (the probe runs then, once).
  const ask = serves ? async () => serves : (askServes ?? (async () => undefined));
  const { curveAddress, extension } = await pumpfunCreatorReads(rpc, mint, ask, signal, facts);
  const { view, liquidity, found } = await readToken(rpc, mint, now, signal, extension, facts);
  const pumpfun = { curveAddress, curve: view.extraAccounts[0] ?? null, launches: found ?? null };
  return { result: assessToken(view, undefined, liquidity, pumpfun, verified) };
};
