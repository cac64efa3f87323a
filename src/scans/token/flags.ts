/** Flags of /scan/token (and the token checks of /scan/pumpfun). Never rename or remove a code. */

import { CREATOR_HISTORY_FLAGS } from '../creator-history/flags.js';
import { LIQUIDITY_FLAGS } from '../liquidity/flags.js';
import { POSITION_FLAGS } from '../liquidity/positions-flags.js';
import type { FlagCatalog } from '../risk/model.js';
import { percent } from '../risk/numbers.js';
import {
  AUTHORITY_HOLDING_SHARE,
  BUNDLE_WALLETS,
  CLUSTER_SHARE_HIGH,
  CLUSTER_SHARE_MEDIUM,
  COMMON_FUNDER_BUYERS,
  LAUNCH_WINDOW_SLOTS,
  MAX_HOPS,
  MIN_FRESH_WALLETS,
  NEW_TOKEN_HOURS,
  SNIPERS_HELD_SHARE,
  TOP1_SHARE,
  TOP10_SHARE,
  TRANSFER_FEE_BPS,
  UNDECLARED_CUT_CRITICAL,
} from './thresholds.js';

const bps = (basisPoints: number) => percent(basisPoints / 10_000);

export const TOKEN_FLAGS = {
  NOT_A_MINT: {
    severity: 'high',
    meaning:
      'The address is not a token mint (missing, or another kind of account): there is no token to buy here.',
    evidenceKeys: ['exists', 'owner', 'reason'],
  },
  MINT_AUTHORITY_ACTIVE: {
    severity: 'high',
    meaning: 'Someone can still mint new tokens at will, diluting every holder.',
    evidenceKeys: ['mint_authority', 'authority_kind'],
  },
  FREEZE_AUTHORITY_ACTIVE: {
    severity: 'high',
    meaning: "Someone can freeze any holder's token account, so holders may be unable to sell.",
    evidenceKeys: ['freeze_authority', 'authority_kind'],
  },
  PERMANENT_DELEGATE: {
    severity: 'critical',
    meaning: "A permanent delegate can transfer or burn tokens out of any holder's account.",
    evidenceKeys: ['permanent_delegate'],
  },
  TRANSFER_FEE: {
    severity: 'medium',
    meaning: `Every transfer pays a fee to the issuer (severity grows with the rate: low under ${bps(TRANSFER_FEE_BPS.medium)}, high from ${bps(TRANSFER_FEE_BPS.high)}, critical from ${bps(TRANSFER_FEE_BPS.critical)}).`,
    evidenceKeys: ['fee_basis_points', 'maximum_fee', 'epoch'],
  },
  TRANSFER_FEE_INCREASE_SCHEDULED: {
    severity: 'medium',
    meaning: 'A higher transfer fee is already scheduled to take effect at a later epoch.',
    evidenceKeys: ['fee_basis_points_next', 'effective_epoch'],
  },
  TRANSFER_FEE_AUTHORITY: {
    severity: 'low',
    meaning: 'Someone can change the transfer fee.',
    evidenceKeys: ['fee_config_authority'],
  },
  TRANSFER_HOOK_ACTIVE: {
    severity: 'high',
    meaning: 'Every transfer calls a program chosen by the issuer, which can block or tax transfers.',
    evidenceKeys: ['transfer_hook_program'],
  },
  TRANSFER_HOOK_AUTHORITY: {
    severity: 'medium',
    meaning: 'Someone can install or change a transfer hook later.',
    evidenceKeys: ['transfer_hook_authority'],
  },
  DEFAULT_STATE_FROZEN: {
    severity: 'critical',
    meaning: 'New token accounts start frozen: buyers cannot move tokens unless the issuer thaws them.',
    evidenceKeys: ['default_account_state'],
    floor: true,
  },
  NON_TRANSFERABLE: {
    severity: 'critical',
    meaning: 'The token cannot be transferred at all: it cannot be sold.',
    evidenceKeys: ['non_transferable'],
    floor: true,
  },
  TOKEN_PAUSED: {
    severity: 'critical',
    meaning: 'The token is paused: no transfers are possible until the issuer resumes it.',
    evidenceKeys: ['pause_authority'],
    floor: true,
  },
  PAUSABLE: {
    severity: 'high',
    meaning: 'Someone can pause all transfers of the token at any time.',
    evidenceKeys: ['pause_authority'],
  },
  MINT_CLOSE_AUTHORITY: {
    severity: 'low',
    meaning: 'Someone can close the mint once its supply is zero.',
    evidenceKeys: ['close_authority'],
  },
  UI_AMOUNT_AUTHORITY: {
    severity: 'low',
    meaning:
      'Someone can change how balances are displayed (an interest rate or a UI multiplier): the amount a wallet shows is not the raw amount held, and can move without a transfer.',
    evidenceKeys: ['authority', 'extension'],
  },
  PERMISSIONED_BURN: {
    severity: 'low',
    meaning:
      "Burning the token needs an authority's approval: holders cannot destroy their own tokens freely.",
    evidenceKeys: ['burn_authority'],
  },
  CONFIDENTIAL_TRANSFERS: {
    severity: 'medium',
    meaning: 'Balances and transfers can be confidential: holder data seen here may be incomplete.',
    evidenceKeys: ['authority', 'auto_approve'],
    confidencePenalty: 0.1,
  },
  UNKNOWN_EXTENSION: {
    severity: 'medium',
    meaning: 'The mint carries Token-2022 extensions this scanner does not know.',
    evidenceKeys: ['extension_types'],
    confidencePenalty: 0.1,
  },
  METADATA_MUTABLE: {
    severity: 'low',
    meaning: 'The name, symbol and image can still be changed (e.g. to impersonate another token).',
    evidenceKeys: ['update_authority', 'source'],
  },
  METADATA_MISSING: {
    severity: 'low',
    meaning: 'The token has no on-chain metadata (name, symbol): wallets show it as unknown.',
    evidenceKeys: ['metadata_account'],
  },
  IMPERSONATES_VERIFIED_TOKEN: {
    severity: 'high',
    meaning:
      "The token's symbol or name reads as a verified token's (compared once case, look-alike letters, accents, spaces, dots, `$` and invisible characters are set aside) while its mint is another one: a copy of a well-known ticker, not the token an agent asking for that ticker means.",
    evidenceKeys: ['verified_mints', 'matches'],
  },
  SUPPLY_ZERO: {
    severity: 'medium',
    meaning: 'No tokens exist: nothing can be bought, and the mint may be closed.',
    evidenceKeys: ['supply'],
  },
  TOKEN_NEW: {
    severity: 'medium',
    meaning: `The mint was created less than ${NEW_TOKEN_HOURS.any / 24} days ago (full strength under ${NEW_TOKEN_HOURS.full} hours): most rugs happen in a token's first days.`,
    evidenceKeys: ['created_at', 'age_hours', 'creation_signature'],
  },
  TOKEN_AGE_UNAVAILABLE: {
    severity: 'low',
    meaning:
      "The mint's history could not be read, or holds no transaction: its age is unknown, so it is not assumed to be old.",
    evidenceKeys: ['reason'],
    confidencePenalty: 0.1,
  },
  HOLDER_TOP1_HIGH: {
    severity: 'high',
    meaning: `One holder owns a large share of the circulating supply (from ${percent(TOP1_SHARE.warn)}; full strength at ${percent(TOP1_SHARE.full)}).`,
    evidenceKeys: ['top1_share', 'top1_owner', 'excluded'],
  },
  HOLDER_TOP10_HIGH: {
    severity: 'medium',
    meaning: `The ten largest holders own most of the circulating supply (from ${percent(TOP10_SHARE.warn)}; full strength at ${percent(TOP10_SHARE.full)}).`,
    evidenceKeys: ['top10_share', 'top10_share_raw', 'excluded'],
  },
  AUTHORITY_HOLDS_SUPPLY: {
    severity: 'high',
    meaning: `The mint or freeze authority itself holds ${percent(AUTHORITY_HOLDING_SHARE)} or more of the supply.`,
    evidenceKeys: ['authority', 'share'],
  },
  FROZEN_HOLDERS: {
    severity: 'high',
    meaning: 'Some of the largest holders are frozen: the freeze power is being used.',
    evidenceKeys: ['frozen_accounts'],
  },
  LARGE_HOLDER_DELEGATED: {
    severity: 'medium',
    meaning: "A large holder's tokens can be moved by a delegate.",
    evidenceKeys: ['token_account', 'delegate', 'delegated_amount'],
  },
  TRUSTED_ISSUER: {
    severity: 'info',
    meaning:
      'A well-known, regulated or widely used token: its centralisation flags are weighted down, not hidden, and the summary and recommendation name the issuer, the powers it holds and what they mean for a holder.',
    evidenceKeys: ['issuer'],
  },
  TRANSFER_BLOCKED: {
    severity: 'critical',
    meaning:
      'A transfer simulated exactly as a wallet sends it, from a real holder to a new wallet, was refused: holders cannot sell or move the token now (paused, frozen by default, a hook that refuses, non-transferable).',
    evidenceKeys: ['failing_program', 'error', 'logs', 'holder', 'amount'],
    floor: true,
  },
  TRANSFER_UNDECLARED_CUT: {
    severity: 'high',
    meaning: `A simulated transfer delivered less than the amount sent minus the declared transfer fee: something takes an undeclared cut (critical from ${percent(UNDECLARED_CUT_CRITICAL)}).`,
    evidenceKeys: ['sent', 'received', 'declared_fee', 'undeclared_cut', 'holder'],
  },
  TRANSFER_SIMULATION_UNAVAILABLE: {
    severity: 'info',
    meaning:
      'The token runs code the scanner cannot read (a transfer hook, an unknown extension), and a transfer could not be simulated (no eligible holder, the RPC refused, the fee payer cannot pay): whether it can be sold is unknown.',
    evidenceKeys: ['reason'],
    confidencePenalty: 0.15,
  },
  HOLDERS_UNAVAILABLE: {
    severity: 'low',
    meaning:
      'The largest holders, or their token accounts, could not be read: concentration (or who holds it) and frozen or delegated holders are unknown.',
    evidenceKeys: ['reason'],
    confidencePenalty: 0.3,
  },
  LAUNCH_BUNDLED: {
    severity: 'medium',
    meaning: `Several wallets other than the creator bought in the very slot the mint was created (from ${BUNDLE_WALLETS.warn}; full strength at ${BUNDLE_WALLETS.full}): a bundled or sniped launch, whose supply went to a few hands before anyone could see the token.`,
    evidenceKeys: ['creation_slot', 'wallets', 'bought_share'],
  },
  LAUNCH_SNIPERS_HOLD: {
    severity: 'high',
    meaning: `Wallets that bought in the creation slot or the ${LAUNCH_WINDOW_SLOTS} slots after it still hold a large share of the supply between them (from ${percent(SNIPERS_HELD_SHARE.warn)}; full strength at ${percent(SNIPERS_HELD_SHARE.full)}) and can sell it into later buyers.`,
    evidenceKeys: ['held_share', 'wallets', 'window_slots'],
  },
  LAUNCH_INSIDERS: {
    severity: 'high',
    meaning: `Launch buyers were funded by the creator (it paid their transaction or sent them SOL in the launch transactions) — or, at medium severity, ${COMMON_FUNDER_BUYERS} or more were funded by one other wallet: the creator's own wallets posing as buyers.`,
    evidenceKeys: ['funder', 'funder_is_creator', 'wallets'],
  },
  INSIDER_CLUSTER: {
    severity: 'high',
    meaning: `Wallets holding ${percent(CLUSTER_SHARE_MEDIUM)} or more of the supply together were funded with SOL, before they first touched the token, by the creator (up to ${MAX_HOPS} hops back) or, for ${MIN_FRESH_WALLETS} or more fresh wallets, by one other wallet: the creator’s own wallets posing as holders. High from ${percent(CLUSTER_SHARE_HIGH)}, medium from ${percent(CLUSTER_SHARE_MEDIUM)}; exchange hot wallets never tie anyone.`,
    evidenceKeys: ['clusters', 'share', 'creator'],
  },
  INSIDERS_UNAVAILABLE: {
    severity: 'low',
    meaning:
      'The RPC refused, or did not answer in time, some of the calls that trace who funded the largest holders and launch buyers: insider clusters among them are unknown.',
    evidenceKeys: ['reason', 'wallets_cut'],
    confidencePenalty: 0.1,
  },
  LAUNCH_UNAVAILABLE: {
    severity: 'low',
    meaning:
      'The token is young enough for its launch to be read, but the RPC did not return its first transactions: whether the launch was bundled or sniped is unknown.',
    evidenceKeys: ['reason'],
    confidencePenalty: 0.1,
  },
  ...LIQUIDITY_FLAGS,
  ...POSITION_FLAGS,
  // A pump.fun mint's creator history, read on /scan/token as on /scan/pumpfun.
  ...CREATOR_HISTORY_FLAGS,
} as const satisfies FlagCatalog;

export type TokenFlag = keyof typeof TOKEN_FLAGS;
