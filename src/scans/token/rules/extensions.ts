/**
 * Token-2022 extension rules as a table: each row names the flag an extension raises, whether the
 * power is a key's (a trusted issuer's weighs less: the multiplier), the severity when it depends on
 * the value (else the catalog's, ../flags.ts), the evidence it shows, and the reasoning line.
 * The rows run in order: the result lists the flags in that order.
 */
import type { MintExtensions, TransferFee, TransferFeeConfig } from '../../../solana/decoders/mint.js';
import { transferFeeAt } from '../../../solana/decoders/mint.js';
import type { FlagHit, Severity } from '../../risk/model.js';
import type { TokenFlag } from '../flags.js';
import { TRANSFER_FEE_BPS } from '../thresholds.js';

type Evidence = Record<string, unknown>;
type Hit = FlagHit<TokenFlag>;

interface ExtensionRule<E extends Evidence = Evidence> {
  readonly flag: TokenFlag;
  /** A key holds the power: its hit carries the trusted-issuer multiplier. */
  readonly held: boolean;
  /** The evidence when the mint raises the flag; null when it does not. */
  readonly evidence: (x: MintExtensions, epoch: bigint | null) => E | null;
  readonly reason: (e: E) => string;
  /** The severity the hit is scored at, when the value decides it. */
  readonly severity?: (e: E) => Severity;
}

const rule = <E extends Evidence>(r: ExtensionRule<E>) => r as unknown as ExtensionRule;

/** Basis points of the transfer fee, scored by how much of a sale it takes. */
function feeSeverity(bps: number): Severity {
  const { critical, high, medium } = TRANSFER_FEE_BPS;
  return bps >= critical ? 'critical' : bps >= high ? 'high' : bps >= medium ? 'medium' : 'low';
}

/**
 * The fee in force. Without the current epoch it is unknown: assume the higher of the two rates
 * (unknown is never safe), and treat the newer one as scheduled only when it is higher still.
 */
function feeNow(config: TransferFeeConfig, epoch: bigint | null): TransferFee {
  if (epoch !== null) return transferFeeAt(config, epoch);
  return config.newerTransferFee.basisPoints >= config.olderTransferFee.basisPoints
    ? config.newerTransferFee
    : config.olderTransferFee;
}

const feeRules = [
  rule({
    flag: 'TRANSFER_FEE',
    held: false,
    evidence: ({ transferFeeConfig: c }, epoch) => {
      const now = c ? feeNow(c, epoch) : null;
      if (now === null || now.basisPoints <= 0) return null;
      const shown = epoch === null ? null : String(epoch);
      return { fee_basis_points: now.basisPoints, maximum_fee: String(now.maximumFee), epoch: shown };
    },
    severity: (e) => feeSeverity(e.fee_basis_points),
    reason: (e) => `every transfer pays ${e.fee_basis_points / 100} % (at most ${e.maximum_fee} units)`,
  }),
  rule({
    flag: 'TRANSFER_FEE_INCREASE_SCHEDULED',
    held: false,
    evidence: ({ transferFeeConfig: c }, epoch) => {
      if (c === null) return null;
      const next = c.newerTransferFee;
      if (next.epoch <= (epoch ?? -1n) || next.basisPoints <= feeNow(c, epoch).basisPoints) return null;
      return { fee_basis_points_next: next.basisPoints, effective_epoch: String(next.epoch) };
    },
    severity: (e) => (e.fee_basis_points_next >= TRANSFER_FEE_BPS.high ? 'high' : 'medium'),
    reason: (e) => `the fee rises to ${e.fee_basis_points_next / 100} % at epoch ${e.effective_epoch}`,
  }),
  rule({
    flag: 'TRANSFER_FEE_AUTHORITY',
    held: true,
    evidence: ({ transferFeeConfig: c }) =>
      c?.configAuthority ? { fee_config_authority: c.configAuthority } : null,
    reason: (e) => `${e.fee_config_authority} can change the fee`,
  }),
];

/** Who can change how balances are displayed, and through which extension. */
function uiAmountAuthority({ scaledUiAmount: scaled, interestBearing: interest }: MintExtensions) {
  if (scaled?.authority)
    return { authority: scaled.authority, extension: 'ScaledUiAmountConfig', multiplier: scaled.multiplier };
  if (interest?.rateAuthority)
    return {
      authority: interest.rateAuthority,
      extension: 'InterestBearingConfig',
      rate_bps: interest.currentRate,
    };
  return null;
}

export const EXTENSION_RULES: readonly ExtensionRule[] = [
  rule({
    flag: 'PERMANENT_DELEGATE',
    held: true,
    evidence: (x) => (x.permanentDelegate ? { permanent_delegate: x.permanentDelegate } : null),
    reason: (e) => `${e.permanent_delegate} can move or burn anyone's tokens`,
  }),
  ...feeRules,
  rule({
    flag: 'TRANSFER_HOOK_ACTIVE',
    held: true,
    evidence: (x) => (x.transferHook?.programId ? { transfer_hook_program: x.transferHook.programId } : null),
    reason: (e) => `transfers run program ${e.transfer_hook_program}`,
  }),
  rule({
    flag: 'TRANSFER_HOOK_AUTHORITY',
    held: true,
    evidence: (x) =>
      x.transferHook?.authority ? { transfer_hook_authority: x.transferHook.authority } : null,
    reason: (e) => `${e.transfer_hook_authority} can set a transfer hook`,
  }),
  rule({
    flag: 'DEFAULT_STATE_FROZEN',
    held: true,
    evidence: (x) => (x.defaultAccountState === 'frozen' ? { default_account_state: 'frozen' } : null),
    reason: () => 'new token accounts start frozen',
  }),
  rule({
    flag: 'NON_TRANSFERABLE',
    held: false,
    evidence: (x) => (x.nonTransferable ? { non_transferable: true } : null),
    reason: () => 'the token cannot be transferred',
  }),
  rule({
    flag: 'TOKEN_PAUSED',
    held: false,
    evidence: (x) => (x.pausable?.paused ? { pause_authority: x.pausable.authority } : null),
    reason: () => 'transfers are paused',
  }),
  rule({
    flag: 'PAUSABLE',
    held: true,
    evidence: (x) =>
      !x.pausable?.paused && x.pausable?.authority ? { pause_authority: x.pausable.authority } : null,
    reason: (e) => `${e.pause_authority} can pause transfers`,
  }),
  rule({
    flag: 'MINT_CLOSE_AUTHORITY',
    held: true,
    evidence: (x) => (x.mintCloseAuthority ? { close_authority: x.mintCloseAuthority } : null),
    reason: (e) => `${e.close_authority} can close the mint`,
  }),
  rule({
    flag: 'UI_AMOUNT_AUTHORITY',
    held: true,
    evidence: uiAmountAuthority,
    reason: (e) => `${e.authority} can change how balances are displayed (${e.extension})`,
  }),
  rule({
    flag: 'PERMISSIONED_BURN',
    held: true,
    evidence: (x) =>
      x.permissionedBurn?.authority ? { burn_authority: x.permissionedBurn.authority } : null,
    reason: (e) => `burning needs ${e.burn_authority}'s approval`,
  }),
  rule({
    flag: 'CONFIDENTIAL_TRANSFERS',
    held: true,
    evidence: ({ confidentialTransferMint: c }) =>
      c ? { authority: c.authority, auto_approve: c.autoApproveNewAccounts } : null,
    reason: () => 'balances can be confidential',
  }),
  rule({
    flag: 'UNKNOWN_EXTENSION',
    held: false,
    evidence: (x) => {
      const unknown = x.present.filter((e) => e.name === null).map((e) => e.type);
      if (unknown.length === 0 && x.undecodable.length === 0 && x.tlvComplete) return null;
      return { extension_types: [...unknown, ...x.undecodable], extension_list_complete: x.tlvComplete };
    },
    reason: (e) =>
      e.extension_list_complete
        ? 'it carries extensions this scanner cannot read'
        : 'its extension list is cut short: what follows cannot be read',
  }),
];

/** The extension rules' hits on a mint, in the table's order. */
export function extensionHits(x: MintExtensions, epoch: bigint | null, multiplier: number): Hit[] {
  return EXTENSION_RULES.flatMap((r): Hit[] => {
    const evidence = r.evidence(x, epoch);
    if (evidence === null) return [];
    const severity = r.severity?.(evidence);
    return [
      {
        code: r.flag,
        strength: 1,
        ...(r.held ? { multiplier } : {}),
        ...(severity ? { severity } : {}),
        evidence,
        reason: r.reason(evidence),
      },
    ];
  });
}
