/**
 * What a scan of each real mainnet dump must and must not raise in the sandbox. The dumps carry their
 * accounts only, not their history, metadata or neighbours, so the entries name what the bytes show
 * (authorities, extensions, a curve's progress) and leave out what the sandbox cannot know. The
 * mainnet entry of the schedule holds its subjects to these; a dump without one stops seeding.
 */
import { type Expectations, scan } from './expectations.js';

const AUTHORITIES = ['MINT_AUTHORITY_ACTIVE', 'FREEZE_AUTHORITY_ACTIVE'] as const;

/** A pump.fun mint whose curve is loaded too: authorities revoked, the curve barely started. */
const EARLY_PUMP_COIN = scan('pumpfun', {
  flags: ['CURVE_EARLY'],
  notFlags: ['NOT_PUMPFUN_MINT', ...AUTHORITIES],
});
/**
 * A pump.fun mint loaded without its bonding curve: the sandbox answers NOT_PUMPFUN_MINT, which
 * mainnet would not, so only what the mint's own bytes show is held.
 */
const CURVELESS_PUMP_MINT = scan('pumpfun', { flags: [], notFlags: ['NOT_A_MINT', ...AUTHORITIES] });
const CURVE_ACCOUNT = scan('pumpfun', { flags: ['NOT_A_MINT'], notFlags: ['NOT_PUMPFUN_MINT'] });
/** The upgrade authority is a PDA (a multisig vault on mainnet) whose owner the sandbox does not hold. */
const PDA_AUTHORITY = scan('program', {
  flags: ['UPGRADE_AUTHORITY_UNKNOWN_PDA'],
  notFlags: ['PROGRAM_IMMUTABLE', 'UPGRADE_AUTHORITY_SINGLE_KEY', 'NOT_A_PROGRAM'],
});
const KEY_AUTHORITY = scan('program', {
  flags: ['UPGRADE_AUTHORITY_SINGLE_KEY'],
  notFlags: ['PROGRAM_IMMUTABLE', 'UPGRADE_AUTHORITY_UNKNOWN_PDA'],
});

export const MAINNET_FLAG_EXPECTATIONS: Expectations = {
  'mainnet:usdt': scan('token', {
    flags: [...AUTHORITIES, 'TRUSTED_ISSUER'],
    notFlags: ['PERMANENT_DELEGATE'],
  }),
  // Paxos keeps every authority; the fee is 0 bps and the hook names no program.
  'mainnet:pyusd': scan('token', {
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
  }),
  'mainnet:pump-bonding-curve-3xM2iMg4': CURVE_ACCOUNT,
  'mainnet:pump-bonding-curve-Fw5xoxp3': CURVE_ACCOUNT,
  'mainnet:pump-v2-t22-mint-3xM2iMg4': EARLY_PUMP_COIN,
  'mainnet:pump-v2-t22-mint-Fw5xoxp3': EARLY_PUMP_COIN,
  'mainnet:pump-v2-t22-mint-ExXQP6Za': CURVELESS_PUMP_MINT,
  'mainnet:pump-legacy-mint-2fWkVf': CURVELESS_PUMP_MINT,
  'mainnet:lido': PDA_AUTHORITY,
  // Its authority is the signer of the real Coral multisig loaded with the dumps: recognised.
  'mainnet:marinade': scan('program', {
    flags: ['UPGRADE_AUTHORITY_MULTISIG'],
    notFlags: ['UPGRADE_AUTHORITY_UNKNOWN_PDA', 'PROGRAM_IMMUTABLE', 'UPGRADE_AUTHORITY_SINGLE_KEY'],
  }),
  'mainnet:sanctum-spl': PDA_AUTHORITY,
  'mainnet:spl-stake-pool': PDA_AUTHORITY,
  'mainnet:token-metadata': PDA_AUTHORITY,
  'mainnet:sanctum-spl-multi': KEY_AUTHORITY,
  'mainnet:stakedex': KEY_AUTHORITY,
};
