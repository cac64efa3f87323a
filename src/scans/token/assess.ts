/**
 * Pure: token facts → flag hits and ScanResult. The checks are exported as `tokenChecks` so
 * /scan/pumpfun runs exactly the same ones on its mint.
 */
import type { ScanResult } from '../../contract/schemas.js';
import { type DecodedMint, type TransferFee, transferFeeAt } from '../../solana/decoders/mint.js';

export { displayName } from './display-name.js';

import { assessLiquidity, type LiquidityOptions } from '../liquidity/assess.js';
import type { LiquidityFacts } from '../liquidity/facts.js';
import type { FlagCatalog, FlagHit } from '../risk/model.js';
import { short } from '../risk/numbers.js';
import { buildResult, sameAdvice } from '../risk/result.js';
import type { TokenFacts, TokenView } from '../token-facts/model.js';
import {
  NATIVE_MINT,
  NATIVE_MINT_2022,
  TRUSTED_ISSUERS,
  TRUSTED_MULTIPLIER,
} from '../token-facts/trusted.js';
import { viewOf } from '../token-facts/view.js';
import { bundledRegistry } from '../verified/bundled.js';
import type { VerifiedRegistry } from '../verified/model.js';
import { TOKEN_FLAGS, type TokenFlag } from './flags.js';
import { governanceHolderOf } from './governance-holder.js';
import { insiderChecks } from './insiders/assess.js';
import { type ControlHolder, issuerControlWording } from './issuer-control.js';
import { launchChecks } from './launch/assess.js';
import { ageOf } from './rules/age.js';
import { authorityHits } from './rules/authorities.js';
import { creatorHistoryOf, type PumpfunCreatorRead } from './rules/creator-history.js';
import { extensionHits } from './rules/extensions.js';
import { holderHits } from './rules/holders.js';
import { impersonationCheck } from './rules/impersonation.js';
import { metadataHits } from './rules/metadata.js';
import { transferSimulationHits } from './transfer-simulation/assess.js';

type Hit = FlagHit<TokenFlag>;

/** The transfer fee a trade pays now: the one in force at the epoch read, else the newer (the larger risk). */
function transferFeeInForce(mint: DecodedMint, epoch: bigint | null): TransferFee | null {
  const config = mint.extensions.transferFeeConfig;
  if (!config) return null;
  return epoch === null ? config.newerTransferFee : transferFeeAt(config, epoch);
}

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

/** The decoded mint when the address holds a usable one, else why not (view.ts decoded it). */
export function readMint(view: TokenView): MintCheck {
  const { mint, notMint } = view.decoded;
  return notMint === null ? { mint, reason: null } : { mint: null, reason: notMint };
}

export function notAMint(facts: TokenFacts, reason: string, code: 'NOT_A_MINT' = 'NOT_A_MINT'): Hit {
  return {
    code,
    strength: 1,
    evidence: { exists: facts.mintAccount !== null, owner: facts.mintAccount?.owner ?? null, reason },
    reason: `it is not a token mint: ${reason}`,
  };
}

/** The result for an address that holds no usable mint, under the scan's own catalog. */
export function notAMintResult(facts: TokenFacts, reason: string | null, catalog: FlagCatalog): ScanResult {
  return buildResult(
    {
      subject: `Address ${short(facts.mint)}`,
      hits: [notAMint(facts, reason ?? 'not a mint')],
      facts: { mint: facts.mint },
      advice: NOT_A_MINT_ADVICE,
    },
    catalog,
  );
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
 * `verified` is the copy of the verified-token registry the scan was given (the bundled one by default).
 */
export function tokenChecks(
  facts: TokenView,
  mint: DecodedMint,
  named: ReadonlyMap<string, string> = new Map(),
  liquidity: { facts: LiquidityFacts; options?: LiquidityOptions } | null = null,
  verified: VerifiedRegistry = bundledRegistry(),
): TokenCheckOutcome {
  const issuer = TRUSTED_ISSUERS.get(facts.mint)?.label;
  const multiplier = issuer ? TRUSTED_MULTIPLIER : 1;
  const metadata = metadataHits(facts, mint, multiplier);
  const impersonation = impersonationCheck(facts, mint, verified);
  // A widely used token (and wrapped SOL) trades on venues beyond the pools checked: no market is not news.
  const traded = issuer !== undefined || facts.mint === NATIVE_MINT || facts.mint === NATIVE_MINT_2022;
  const markets = liquidity
    ? assessLiquidity(liquidity.facts, mint, {
        nowSeconds: facts.nowSeconds,
        solUsd: facts.solUsdAccount,
        transferFee: transferFeeInForce(mint, facts.epoch),
        ...liquidity.options,
        ...(traded ? { tradedElsewhere: true } : {}),
      })
    : null;
  const holders = holderHits(facts, mint, new Map([...(markets?.named ?? []), ...named]));
  const age = ageOf(facts);
  const simulation = transferSimulationHits(facts.transferSimulation, mint, facts.epoch);
  const launch = launchChecks(facts, mint.supply);
  const insiders = insiderChecks(facts, mint.supply);
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
    ...extensionHits(mint.extensions, facts.epoch, multiplier),
    ...metadata.hits,
    ...impersonation.hits,
    ...holders.hits,
    ...age.hits,
    ...simulation.hits,
    ...launch.hits,
    ...insiders.hits,
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
      ...impersonation.facts,
      ...age.summary,
      ...holders.summary,
      ...(simulation.summary ? { transfer_simulation: simulation.summary } : {}),
      ...launch.summary,
      ...insiders.summary,
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

/** The token's result, from its decoded view (facts assembled by hand are decoded here, once). */
export function assessToken(
  read: TokenFacts,
  holder = controlHolderOf(read),
  liquidity: LiquidityFacts | null = null,
  pumpfun: PumpfunCreatorRead | null = null,
  verified: VerifiedRegistry = bundledRegistry(),
): ScanResult {
  const facts = viewOf(read);
  const { mint, reason } = readMint(facts);
  if (mint === null) return notAMintResult(facts, reason, TOKEN_FLAGS);
  const checks = tokenChecks(facts, mint, new Map(), liquidity ? { facts: liquidity } : null, verified);
  const governed = holder?.kind === 'governance' ? governanceHolderOf(facts.governors) : null;
  const creator = pumpfun ? creatorHistoryOf(facts.mint, pumpfun) : null;
  return buildResult(
    {
      subject: `Token ${short(facts.mint)}${checks.name ? ` (${checks.name})` : ''}`,
      hits: [...checks.hits, ...(creator?.hits ?? [])],
      facts: {
        ...checks.facts,
        ...(governed ? { authority_control: governed.evidence } : {}),
        ...creator?.facts,
      },
      advice: TOKEN_ADVICE,
      notes: [...(creator?.notes ?? []), ...checks.notes],
      ...(holder ? { wording: issuerControlWording(holder, TOKEN_ADVICE) } : {}),
    },
    TOKEN_FLAGS,
  );
}
