/**
 * /scan/pumpfun facts in two round trips: the token facts, with the bonding curve and the
 * canonical PumpSwap pool (both PDAs derived locally) read alongside the mint; then, beside
 * the holders, every curve the same creator launched — one getProgramAccounts on the pump
 * program filtered by the creator's address.
 */
import type { Address, Base58EncodedBytes } from '@solana/kit';
import { decodeBondingCurve, findBondingCurveAddress } from '../../solana/decoders/pump-bonding-curve.js';
import { findCanonicalPumpPoolAddress } from '../../solana/decoders/pumpswap-pool.js';
import { PUMP_PROGRAM } from '../../solana/programs.js';
import type { SolanaRpc } from '../../solana/rpc.js';
import { gatherTokenFacts, type RawAccount, type TokenFacts } from '../token/facts.js';

/** Offset of `creator` in every bonding-curve layout that has one (after the 8-byte discriminator and five u64s and a bool). */
export const CREATOR_OFFSET = 49n;

export interface CreatorLaunches {
  /** Decoded curves of every coin the creator launched; null when they could not be read. */
  readonly curves: readonly { address: string; data: Uint8Array }[] | null;
  readonly error: string | null;
}

export interface PumpfunFacts {
  readonly token: TokenFacts;
  readonly curveAddress: Address;
  readonly curve: RawAccount | null;
  readonly poolAddress: Address;
  readonly pool: RawAccount | null;
  readonly launches: CreatorLaunches | null;
}

async function creatorLaunches(
  rpc: SolanaRpc,
  curve: RawAccount | null,
  abortSignal?: AbortSignal,
): Promise<CreatorLaunches | null> {
  if (curve === null || curve.owner !== PUMP_PROGRAM) return null;
  const decoded = decodeBondingCurve(curve.data);
  const creator = decoded.ok ? decoded.value.creator : null;
  if (creator === null) return null;
  try {
    const accounts = await rpc
      .getProgramAccounts(PUMP_PROGRAM, {
        encoding: 'base64',
        filters: [
          {
            memcmp: {
              offset: CREATOR_OFFSET,
              bytes: creator as unknown as Base58EncodedBytes,
              encoding: 'base58',
            },
          },
        ],
      })
      .send(abortSignal ? { abortSignal } : {});
    return {
      curves: accounts.map((a) => ({
        address: a.pubkey,
        data: new Uint8Array(Buffer.from(a.account.data[0], 'base64')),
      })),
      error: null,
    };
  } catch (e) {
    return { curves: null, error: e instanceof Error ? e.message : String(e) };
  }
}

export async function gatherPumpfunFacts(
  rpc: SolanaRpc,
  mint: Address,
  now: () => number,
  abortSignal?: AbortSignal,
): Promise<PumpfunFacts> {
  const [curveAddress, poolAddress] = await Promise.all([
    findBondingCurveAddress(mint),
    findCanonicalPumpPoolAddress(mint),
  ]);
  const { facts, extra } = await gatherTokenFacts(rpc, mint, now, {
    extraAccounts: [curveAddress, poolAddress],
    round2: ({ extraAccounts }) => creatorLaunches(rpc, extraAccounts[0] ?? null, abortSignal),
    ...(abortSignal ? { abortSignal } : {}),
  });
  return {
    token: facts,
    curveAddress,
    curve: facts.extraAccounts[0] ?? null,
    poolAddress,
    pool: facts.extraAccounts[1] ?? null,
    launches: extra ?? null,
  };
}
