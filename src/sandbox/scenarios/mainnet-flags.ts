/**
 * What a scan of each real mainnet dump must and must not raise in the sandbox. The dumps carry their
 * accounts only, not their history, metadata or neighbours, so the entries name what the bytes show
 * (authorities, extensions, a curve's progress) and leave out what the sandbox cannot know.
 */
import type { FlagExpect } from './manifest.js';

const AUTHORITIES = ['MINT_AUTHORITY_ACTIVE', 'FREEZE_AUTHORITY_ACTIVE'];

/** A pump.fun mint whose curve is loaded too: authorities revoked, the curve barely started. */
const EARLY_PUMP_COIN: FlagExpect = {
  flags: ['CURVE_EARLY'],
  notFlags: ['NOT_PUMPFUN_MINT', ...AUTHORITIES],
};
/**
 * A pump.fun mint loaded without its bonding curve: the sandbox answers NOT_PUMPFUN_MINT, which
 * mainnet would not, so only what the mint's own bytes show is held.
 */
const CURVELESS_PUMP_MINT: FlagExpect = { flags: [], notFlags: ['NOT_A_MINT', ...AUTHORITIES] };
const CURVE_ACCOUNT: FlagExpect = { flags: ['NOT_A_MINT'], notFlags: ['NOT_PUMPFUN_MINT'] };
/** The upgrade authority is a PDA (a multisig vault on mainnet) whose owner the sandbox does not hold. */
const PDA_AUTHORITY: FlagExpect = {
  flags: ['UPGRADE_AUTHORITY_UNKNOWN_PDA'],
  notFlags: ['PROGRAM_IMMUTABLE', 'UPGRADE_AUTHORITY_SINGLE_KEY', 'NOT_A_PROGRAM'],
};
const KEY_AUTHORITY: FlagExpect = {
  flags: ['UPGRADE_AUTHORITY_SINGLE_KEY'],
  notFlags: ['PROGRAM_IMMUTABLE', 'UPGRADE_AUTHORITY_UNKNOWN_PDA'],
};

export const MAINNET_FLAG_EXPECTATIONS: Readonly<Record<string, FlagExpect>> = {
  'mainnet:usdt': { flags: [...AUTHORITIES, 'TRUSTED_ISSUER'], notFlags: ['PERMANENT_DELEGATE'] },
  // Paxos keeps every authority; the fee is 0 bps and the hook names no program.
  'mainnet:pyusd': {
    flags: [
      ...AUTHORITIES,
      'PERMANENT_DELEGATE',
      'CONFIDENTIAL_TRANSFERS',
      'TRANSFER_FEE_AUTHORITY',
      'TRANSFER_HOOK_AUTHORITY',
      'MINT_CLOSE_AUTHORITY',
      'TRUSTED_ISSUER',
    ],
    notFlags: ['NOT_A_MINT', 'TRANSFER_FEE', 'TRANSFER_HOOK_ACTIVE'],
  },
  'mainnet:pump-bonding-curve-3xM2iMg4': CURVE_ACCOUNT,
  'mainnet:pump-bonding-curve-Fw5xoxp3': CURVE_ACCOUNT,
  'mainnet:pump-v2-t22-mint-3xM2iMg4': EARLY_PUMP_COIN,
  'mainnet:pump-v2-t22-mint-Fw5xoxp3': EARLY_PUMP_COIN,
  'mainnet:pump-v2-t22-mint-ExXQP6Za': CURVELESS_PUMP_MINT,
  'mainnet:pump-legacy-mint-2fWkVf': CURVELESS_PUMP_MINT,
  'mainnet:lido': PDA_AUTHORITY,
  // Its authority is the signer of the real Coral multisig loaded with the dumps: recognised.
  'mainnet:marinade': {
    flags: ['UPGRADE_AUTHORITY_MULTISIG'],
    notFlags: ['UPGRADE_AUTHORITY_UNKNOWN_PDA', 'PROGRAM_IMMUTABLE', 'UPGRADE_AUTHORITY_SINGLE_KEY'],
  },
  'mainnet:sanctum-spl': PDA_AUTHORITY,
  'mainnet:spl-stake-pool': PDA_AUTHORITY,
  'mainnet:token-metadata': PDA_AUTHORITY,
  'mainnet:sanctum-spl-multi': KEY_AUTHORITY,
  'mainnet:stakedex': KEY_AUTHORITY,
};

/** The entry for `name`; a dump listed as a subject without one stops seeding and says what to add. */
export function mainnetFlagExpect(name: string, file: string): FlagExpect {
  const entry = MAINNET_FLAG_EXPECTATIONS[name];
  if (!entry) {
    throw new Error(
      `${name} (from ${file}) has no flag expectations: add '${name}': { flags: [...], notFlags: [...] } to MAINNET_FLAG_EXPECTATIONS in src/sandbox/scenarios/mainnet-flags.ts`,
    );
  }
  return structuredClone(entry);
}
