/**
 * Pure: token facts → flag hits and ScanResult. The checks are exported as `tokenChecks` so
 * /scan/pumpfun runs exactly the same ones on its mint.
 */
import type { Address } from '@solana/kit';
import type { ScanResult } from '../../contract/schemas.js';
import { authorityKind } from '../../solana/address-curve.js';
import { decodeMetadata } from '../../solana/decoders/metaplex-metadata.js';
import { type DecodedMint, decodeMint, transferFeeAt } from '../../solana/decoders/mint.js';
import { TOKEN_METADATA_PROGRAM } from '../../solana/programs.js';

export { displayName } from './display-name.js';

import { assessLiquidity, type LiquidityOptions } from '../liquidity/assess.js';
import type { LiquidityFacts } from '../liquidity/facts.js';
import type { FlagHit, Severity } from '../risk/model.js';
import { buildResult, sameAdvice } from '../risk/result.js';
import { displayName } from './display-name.js';
import { TOKEN_FLAGS, type TokenFlag } from './flags.js';
import { governanceHolderOf } from './governance-holder.js';
import { concentration, holdersOf } from './holders.js';
import { type ControlHolder, issuerControlWording } from './issuer-control.js';
import { launchChecks } from './launch/assess.js';
import type { TokenFacts } from './model.js';
import { transferSimulationHits } from './transfer-simulation/assess.js';
import { NATIVE_MINT, NATIVE_MINT_2022, TRUSTED_ISSUERS, TRUSTED_MULTIPLIER } from './trusted.js';

type Hit = FlagHit<TokenFlag>;
const short = (s: string) => `${s.slice(0, 4)}…${s.slice(-4)}`;
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
/** Linear 0..1 between a warning and a danger threshold. */
const ramp = (x: number, warn: number, danger: number) =>
  Math.max(0, Math.min(1, (x - warn) / (danger - warn) + (x >= warn ? 0.01 : 0)));

export const TOKEN_ADVICE = {
  proceed: 'No material token risks found; size positions as usual.',
  caution:
    'Some control remains with the issuer or a few holders: size positions accordingly and watch the flagged points.',
  avoid:
    'The issuer or a few holders can hurt holders of this token: avoid it unless you accept the flagged risks.',
  do_not_interact:
    'Do not buy or accept this token: the flagged risks are severe enough to cost holders the position.',
} as const;

/** What to do when the address is no mint at all. */
export const NOT_A_MINT_ADVICE = sameAdvice(
  'This address is not a token mint: check that you passed the mint address, and do not treat it as a token.',
);

export interface MintCheck {
  readonly mint: DecodedMint | null;
  readonly reason: string | null;
}

export function readMint(facts: TokenFacts): MintCheck {
  const account = facts.mintAccount;
  if (account === null) return { mint: null, reason: 'no account exists at this address' };
  const decoded = decodeMint(account.data, account.owner);
  if (!decoded.ok) return { mint: null, reason: decoded.detail };
  // An account allocated for a mint but never initialised holds no token yet.
  if (!decoded.value.isInitialized) return { mint: null, reason: 'the mint account was never initialised' };
  return { mint: decoded.value, reason: null };
}

export function notAMint(facts: TokenFacts, reason: string, code: 'NOT_A_MINT' = 'NOT_A_MINT'): Hit {
  return {
    code,
    strength: 1,
    evidence: { exists: facts.mintAccount !== null, owner: facts.mintAccount?.owner ?? null, reason },
    reason: `it is not a token mint: ${reason}`,
  };
}

function authorityHits(facts: TokenFacts, mint: DecodedMint, multiplier: number): Hit[] {
  const hits: Hit[] = [];
  const m = { multiplier };
  if (mint.mintAuthority) {
    hits.push({
      code: 'MINT_AUTHORITY_ACTIVE',
      strength: 1,
      ...m,
      evidence: { mint_authority: mint.mintAuthority, authority_kind: authorityKind(mint.mintAuthority) },
      reason: `${mint.mintAuthority} can mint more`,
    });
  }
  if (mint.freezeAuthority) {
    hits.push({
      code: 'FREEZE_AUTHORITY_ACTIVE',
      strength: 1,
      ...m,
      evidence: {
        freeze_authority: mint.freezeAuthority,
        authority_kind: authorityKind(mint.freezeAuthority),
      },
      reason: `${mint.freezeAuthority} can freeze holders`,
    });
  }
  if (mint.supply === 0n && facts.mint !== NATIVE_MINT && facts.mint !== NATIVE_MINT_2022) {
    hits.push({ code: 'SUPPLY_ZERO', strength: 1, evidence: { supply: '0' }, reason: 'no tokens exist' });
  }
  return hits;
}

const HOUR = 3600;
/** Under a day a new token is at full strength; up to a week, a third of it. */
const NEW_TOKEN_HOURS = { full: 24, any: 7 * 24 } as const;

/** The mint's age from the oldest signature one page reached; exact only when the page was not full. */
function ageOf(facts: TokenFacts): { hits: Hit[]; summary: Record<string, unknown> } {
  const history = facts.history;
  const oldest = history?.oldest ?? null;
  if (history === null || oldest === null || oldest.blockTime === null) {
    const reason =
      history === null
        ? 'the RPC did not answer getSignaturesForAddress for the mint'
        : oldest === null
          ? 'the RPC knows no transaction naming the mint (history pruned or never indexed)'
          : 'the oldest transaction read has no block time';
    return {
      hits: [
        { code: 'TOKEN_AGE_UNAVAILABLE', strength: 1, evidence: { reason }, reason: 'its age is unknown' },
      ],
      summary: { created_at: null, age_hours: null },
    };
  }
  const ageHours = Math.max(0, (facts.nowSeconds - oldest.blockTime) / HOUR);
  const rounded = Math.round(ageHours * 10) / 10;
  const when = new Date(oldest.blockTime * 1000).toISOString();
  if (history.truncated) {
    // More than a page of history: at least this old, and too busy to date exactly in one read.
    return { hits: [], summary: { created_at: null, age_hours: null, age_at_least_hours: rounded } };
  }
  const hits: Hit[] = [];
  if (ageHours < NEW_TOKEN_HOURS.any) {
    hits.push({
      code: 'TOKEN_NEW',
      strength: ageHours < NEW_TOKEN_HOURS.full ? 1 : 1 / 3,
      evidence: { created_at: when, age_hours: rounded, creation_signature: oldest.signature },
      reason: `the mint was created ${rounded < 48 ? `${rounded} hours` : `${Math.floor(rounded / 24)} days`} ago`,
    });
  }
  return { hits, summary: { created_at: when, age_hours: rounded } };
}

function feeSeverity(bps: number): Severity {
  return bps >= 2500 ? 'critical' : bps >= 1000 ? 'high' : bps >= 100 ? 'medium' : 'low';
}

function extensionHits(facts: TokenFacts, mint: DecodedMint, multiplier: number): Hit[] {
  const x = mint.extensions;
  const hits: Hit[] = [];
  const m = { multiplier };
  if (x.permanentDelegate)
    hits.push({
      code: 'PERMANENT_DELEGATE',
      strength: 1,
      ...m,
      evidence: { permanent_delegate: x.permanentDelegate },
      reason: `${x.permanentDelegate} can move or burn anyone's tokens`,
    });
  if (x.transferFeeConfig) {
    // Without the current epoch the fee in force is unknown: assume the higher of the two rates
    // (unknown is never safe), and treat the newer one as scheduled only when it is higher still.
    const config = x.transferFeeConfig;
    const higher =
      config.newerTransferFee.basisPoints >= config.olderTransferFee.basisPoints
        ? config.newerTransferFee
        : config.olderTransferFee;
    const epoch = facts.epoch ?? -1n;
    const now = facts.epoch === null ? higher : transferFeeAt(config, facts.epoch);
    const next = x.transferFeeConfig.newerTransferFee;
    if (now.basisPoints > 0) {
      hits.push({
        code: 'TRANSFER_FEE',
        strength: 1,
        severity: feeSeverity(now.basisPoints),
        evidence: {
          fee_basis_points: now.basisPoints,
          maximum_fee: String(now.maximumFee),
          epoch: facts.epoch === null ? null : String(facts.epoch),
        },
        reason: `every transfer pays ${now.basisPoints / 100} % (at most ${now.maximumFee} units)`,
      });
    }
    if (next.epoch > epoch && next.basisPoints > now.basisPoints) {
      hits.push({
        code: 'TRANSFER_FEE_INCREASE_SCHEDULED',
        strength: 1,
        severity: next.basisPoints >= 1000 ? 'high' : 'medium',
        evidence: { fee_basis_points_next: next.basisPoints, effective_epoch: String(next.epoch) },
        reason: `the fee rises to ${next.basisPoints / 100} % at epoch ${next.epoch}`,
      });
    }
    if (x.transferFeeConfig.configAuthority) {
      hits.push({
        code: 'TRANSFER_FEE_AUTHORITY',
        strength: 1,
        ...m,
        evidence: { fee_config_authority: x.transferFeeConfig.configAuthority },
        reason: `${x.transferFeeConfig.configAuthority} can change the fee`,
      });
    }
  }
  if (x.transferHook?.programId)
    hits.push({
      code: 'TRANSFER_HOOK_ACTIVE',
      strength: 1,
      ...m,
      evidence: { transfer_hook_program: x.transferHook.programId },
      reason: `transfers run program ${x.transferHook.programId}`,
    });
  if (x.transferHook?.authority)
    hits.push({
      code: 'TRANSFER_HOOK_AUTHORITY',
      strength: 1,
      ...m,
      evidence: { transfer_hook_authority: x.transferHook.authority },
      reason: `${x.transferHook.authority} can set a transfer hook`,
    });
  if (x.defaultAccountState === 'frozen')
    hits.push({
      code: 'DEFAULT_STATE_FROZEN',
      strength: 1,
      ...m,
      evidence: { default_account_state: 'frozen' },
      reason: 'new token accounts start frozen',
    });
  if (x.nonTransferable)
    hits.push({
      code: 'NON_TRANSFERABLE',
      strength: 1,
      evidence: { non_transferable: true },
      reason: 'the token cannot be transferred',
    });
  if (x.pausable?.paused)
    hits.push({
      code: 'TOKEN_PAUSED',
      strength: 1,
      evidence: { pause_authority: x.pausable.authority },
      reason: 'transfers are paused',
    });
  else if (x.pausable?.authority)
    hits.push({
      code: 'PAUSABLE',
      strength: 1,
      ...m,
      evidence: { pause_authority: x.pausable.authority },
      reason: `${x.pausable.authority} can pause transfers`,
    });
  if (x.mintCloseAuthority)
    hits.push({
      code: 'MINT_CLOSE_AUTHORITY',
      strength: 1,
      ...m,
      evidence: { close_authority: x.mintCloseAuthority },
      reason: `${x.mintCloseAuthority} can close the mint`,
    });
  const uiAuthority = x.scaledUiAmount?.authority
    ? {
        authority: x.scaledUiAmount.authority,
        extension: 'ScaledUiAmountConfig',
        multiplier: x.scaledUiAmount.multiplier,
      }
    : x.interestBearing?.rateAuthority
      ? {
          authority: x.interestBearing.rateAuthority,
          extension: 'InterestBearingConfig',
          rate_bps: x.interestBearing.currentRate,
        }
      : null;
  if (uiAuthority)
    hits.push({
      code: 'UI_AMOUNT_AUTHORITY',
      strength: 1,
      ...m,
      evidence: uiAuthority,
      reason: `${uiAuthority.authority} can change how balances are displayed (${uiAuthority.extension})`,
    });
  if (x.permissionedBurn?.authority)
    hits.push({
      code: 'PERMISSIONED_BURN',
      strength: 1,
      ...m,
      evidence: { burn_authority: x.permissionedBurn.authority },
      reason: `burning needs ${x.permissionedBurn.authority}'s approval`,
    });
  if (x.confidentialTransferMint)
    hits.push({
      code: 'CONFIDENTIAL_TRANSFERS',
      strength: 1,
      ...m,
      evidence: {
        authority: x.confidentialTransferMint.authority,
        auto_approve: x.confidentialTransferMint.autoApproveNewAccounts,
      },
      reason: 'balances can be confidential',
    });
  const unknown = x.present.filter((e) => e.name === null).map((e) => e.type);
  if (unknown.length > 0 || x.undecodable.length > 0 || !x.tlvComplete)
    hits.push({
      code: 'UNKNOWN_EXTENSION',
      strength: 1,
      evidence: { extension_types: [...unknown, ...x.undecodable], extension_list_complete: x.tlvComplete },
      reason: x.tlvComplete
        ? 'it carries extensions this scanner cannot read'
        : 'its extension list is cut short: what follows cannot be read',
    });
  return hits;
}

function metadataHits(
  facts: TokenFacts,
  mint: DecodedMint,
  multiplier: number,
): { hits: Hit[]; name: string | null } {
  const own = mint.extensions.tokenMetadata;
  if (own) {
    const hits: Hit[] = own.updateAuthority
      ? [
          {
            code: 'METADATA_MUTABLE',
            strength: 1,
            multiplier,
            evidence: { update_authority: own.updateAuthority, source: 'token-2022 metadata' },
            reason: `${own.updateAuthority} can rename the token`,
          },
        ]
      : [];
    return { hits, name: displayName(own.symbol || own.name) };
  }
  const account = facts.metadataAccount;
  const metadata = account && account.owner === TOKEN_METADATA_PROGRAM ? decodeMetadata(account.data) : null;
  if (metadata?.ok) {
    const md = metadata.value;
    const hits: Hit[] = md.isMutable
      ? [
          {
            code: 'METADATA_MUTABLE',
            strength: 1,
            multiplier,
            evidence: { update_authority: md.updateAuthority, source: 'metaplex' },
            reason: `${md.updateAuthority} can rename the token`,
          },
        ]
      : [];
    return { hits, name: displayName(md.symbol || md.name) };
  }
  return {
    hits: [
      {
        code: 'METADATA_MISSING',
        strength: 1,
        evidence: { metadata_account: facts.metadataAddress },
        reason: 'it has no on-chain name or symbol',
      },
    ],
    name: null,
  };
}

function holderHits(
  facts: TokenFacts,
  mint: DecodedMint,
  named: ReadonlyMap<string, string>,
): { hits: Hit[]; summary: Record<string, unknown> } {
  if (facts.largest === null) {
    return {
      hits: [
        {
          code: 'HOLDERS_UNAVAILABLE',
          strength: 1,
          evidence: { reason: facts.largestError ?? 'unknown' },
          reason: 'its largest holders could not be read',
        },
      ],
      summary: {},
    };
  }
  const holders = holdersOf(facts.largest, facts.holderAccounts);
  const c = concentration(holders, mint.supply, named);
  const hits: Hit[] = [];
  if (facts.largest.length > 0 && facts.holderAccounts.every((a) => a === null)) {
    // Balances are known but not who holds them: pools and curves cannot be set aside (the
    // concentration shown is the raw one) and frozen or delegated holders are invisible.
    hits.push({
      code: 'HOLDERS_UNAVAILABLE',
      strength: 1,
      evidence: { reason: "the largest holders' token accounts could not be read" },
      reason:
        "its largest holders' accounts could not be read: owners, frozen and delegated states are unknown",
    });
  }
  const excluded = c.excluded;
  if (c.top1 && c.top1Share >= 0.2) {
    hits.push({
      code: 'HOLDER_TOP1_HIGH',
      strength: ramp(c.top1Share, 0.2, 0.5),
      evidence: { top1_share: c.top1Share, top1_owner: c.top1.owner, excluded },
      reason: `one holder (${c.top1.owner ? short(c.top1.owner) : '?'}) owns ${pct(c.top1Share)} of the circulating supply`,
    });
  }
  if (c.top10Share >= 0.5) {
    hits.push({
      code: 'HOLDER_TOP10_HIGH',
      strength: ramp(c.top10Share, 0.5, 0.8),
      evidence: { top10_share: c.top10Share, top10_share_raw: c.top10ShareRaw, excluded },
      reason: `the ten largest holders own ${pct(c.top10Share)} of the circulating supply`,
    });
  }
  // One key often holds both powers: count it once, and raise the flag once (for the larger holding).
  const authorities = [...new Set([mint.mintAuthority, mint.freezeAuthority])].filter(
    (a): a is Address => a !== null,
  );
  const holding = authorities
    .map((authority) => {
      const held = holders.filter((h) => h.owner === authority).reduce((s, h) => s + h.amount, 0n);
      return { authority, share: mint.supply > 0n ? Number((held * 10_000n) / mint.supply) / 10_000 : 0 };
    })
    .sort((a, b) => b.share - a.share)[0];
  if (holding && holding.share >= 0.05)
    hits.push({
      code: 'AUTHORITY_HOLDS_SUPPLY',
      strength: 1,
      evidence: { authority: holding.authority, share: holding.share },
      reason: `authority ${short(holding.authority)} holds ${pct(holding.share)} of the supply`,
    });
  const frozen = holders.filter((h) => h.frozen && h.amount > 0n);
  if (frozen.length > 0)
    hits.push({
      code: 'FROZEN_HOLDERS',
      strength: 1,
      evidence: { frozen_accounts: frozen.map((h) => h.tokenAccount) },
      reason: `${frozen.length} of the largest holders are frozen`,
    });
  const delegated = holders.find((h) => h.delegate !== null && h.delegatedAmount > 0n);
  if (delegated)
    hits.push({
      code: 'LARGE_HOLDER_DELEGATED',
      strength: 1,
      evidence: {
        token_account: delegated.tokenAccount,
        delegate: delegated.delegate,
        delegated_amount: String(delegated.delegatedAmount),
      },
      reason: `${delegated.delegate} may move ${delegated.delegatedAmount} units of a large holder's tokens`,
    });
  return {
    hits,
    summary: {
      largest_holders_read: holders.length,
      float_supply: String(c.floatSupply),
      top1_share: c.top1Share,
      top10_share: c.top10Share,
      top10_share_raw: c.top10ShareRaw,
      excluded,
    },
  };
}

export interface TokenCheckOutcome {
  readonly hits: Hit[];
  readonly name: string | null;
  readonly facts: Record<string, unknown>;
  /** Lines for the reasoning that are no flag (e.g. a check that did not run, and why). */
  readonly notes: string[];
}

/**
 * Every token check on a decoded mint; `named` names holders to set aside (pools, curves). With
 * liquidity facts, the markets are checked too and each pool vault set aside names its pool.
 */
export function tokenChecks(
  facts: TokenFacts,
  mint: DecodedMint,
  named: ReadonlyMap<string, string> = new Map(),
  liquidity: { facts: LiquidityFacts; options?: LiquidityOptions } | null = null,
): TokenCheckOutcome {
  const issuer = TRUSTED_ISSUERS.get(facts.mint)?.label;
  const multiplier = issuer ? TRUSTED_MULTIPLIER : 1;
  const metadata = metadataHits(facts, mint, multiplier);
  // A widely used token (and wrapped SOL) trades on venues beyond the pools checked: no market is not news.
  const traded = issuer !== undefined || facts.mint === NATIVE_MINT || facts.mint === NATIVE_MINT_2022;
  const markets = liquidity
    ? assessLiquidity(liquidity.facts, mint, {
        nowSeconds: facts.nowSeconds,
        ...liquidity.options,
        ...(traded ? { tradedElsewhere: true } : {}),
      })
    : null;
  const holders = holderHits(facts, mint, new Map([...(markets?.named ?? []), ...named]));
  const age = ageOf(facts);
  const simulation = transferSimulationHits(facts.transferSimulation, mint, facts.epoch);
  const launch = launchChecks(facts, mint.supply);
  const hits: Hit[] = [
    ...(issuer
      ? [
          {
            code: 'TRUSTED_ISSUER' as const,
            strength: 1,
            evidence: { issuer },
            reason: `${issuer} is a widely used token; its authority flags are weighted down, not hidden`,
          },
        ]
      : []),
    ...authorityHits(facts, mint, multiplier),
    ...extensionHits(facts, mint, multiplier),
    ...metadata.hits,
    ...holders.hits,
    ...age.hits,
    ...simulation.hits,
    ...launch.hits,
    ...(markets?.hits ?? []),
  ];
  return {
    hits,
    name: metadata.name,
    notes: launch.notes,
    facts: {
      mint: facts.mint,
      program: mint.program,
      supply: String(mint.supply),
      decimals: mint.decimals,
      mint_authority: mint.mintAuthority,
      freeze_authority: mint.freezeAuthority,
      extensions: mint.extensions.present.map((e) => e.name ?? `unknown(${e.type})`),
      trusted_issuer: issuer ?? null,
      ...age.summary,
      ...holders.summary,
      ...(simulation.summary ? { transfer_simulation: simulation.summary } : {}),
      ...launch.summary,
      ...(markets?.summary ?? {}),
    },
  };
}

/**
 * Who holds the mint's powers, when a caller can name and weigh them: its trusted issuer, else a
 * multisig or DAO whose governing account verifiably derives its authorities (facts.governors).
 */
export function controlHolderOf(facts: TokenFacts): ControlHolder | null {
  const issuer = TRUSTED_ISSUERS.get(facts.mint);
  if (issuer) return { kind: 'trusted-issuer', issuer };
  return governanceHolderOf(facts.governors)?.holder ?? null;
}

export function assessToken(
  facts: TokenFacts,
  holder = controlHolderOf(facts),
  liquidity: LiquidityFacts | null = null,
): ScanResult {
  const { mint, reason } = readMint(facts);
  if (mint === null) {
    return buildResult(
      {
        subject: `Address ${short(facts.mint)}`,
        hits: [notAMint(facts, reason ?? 'not a mint')],
        facts: { mint: facts.mint },
        advice: NOT_A_MINT_ADVICE,
      },
      TOKEN_FLAGS,
    );
  }
  const checks = tokenChecks(facts, mint, new Map(), liquidity ? { facts: liquidity } : null);
  const governed = holder?.kind === 'governance' ? governanceHolderOf(facts.governors) : null;
  return buildResult(
    {
      subject: `Token ${short(facts.mint)}${checks.name ? ` (${checks.name})` : ''}`,
      hits: checks.hits,
      facts: governed ? { ...checks.facts, authority_control: governed.evidence } : checks.facts,
      advice: TOKEN_ADVICE,
      notes: checks.notes,
      ...(holder ? { wording: issuerControlWording(holder, TOKEN_ADVICE) } : {}),
    },
    TOKEN_FLAGS,
  );
}
