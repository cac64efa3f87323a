/**
 * SPL Token and Token-2022 mints, normalised to one shape for the risk rules.
 *
 * The base (authorities, supply, decimals) is decoded with the program packages' own
 * `getMintDecoder()`; authorities come from the COption tag, so a revoked authority that still
 * carries its old key bytes (real pump.fun legacy mints do) decodes as null. Token-2022
 * extensions come from the tolerant TLV walk and are flattened into `MintExtensions`.
 */

import type { Address } from '@solana/kit';
import { getMintDecoder as getSplMintDecoder } from '@solana-program/token';
import { type Extension, getMintDecoder as getToken2022MintDecoder } from '@solana-program/token-2022';
import { nonZeroAddress, optionalAddress } from './optional-address.js';
import { type DecodeResult, decoded, notDecoded, tryDecode } from './result.js';
import { type ExtensionEntry, scanExtensions } from './token-2022-tlv.js';
import {
  ACCOUNT_TYPE_ACCOUNT,
  ACCOUNT_TYPE_MINT,
  ACCOUNT_TYPE_OFFSET,
  isCOptionTag,
  MINT_BASE_SIZE,
  MULTISIG_SIZE,
  TOKEN_ACCOUNT_BASE_SIZE,
  type TokenAccountState,
  type TokenProgramKind,
  tokenAccountState,
  tokenProgramKind,
} from './token-program.js';

export interface TransferFee {
  readonly epoch: bigint;
  readonly maximumFee: bigint;
  readonly basisPoints: number;
}

export interface TransferFeeConfig {
  readonly configAuthority: Address | null;
  readonly withdrawWithheldAuthority: Address | null;
  readonly withheldAmount: bigint;
  /** In force before `newerTransferFee.epoch`. */
  readonly olderTransferFee: TransferFee;
  /** In force from its epoch on: a newer fee above the older one is a scheduled increase. */
  readonly newerTransferFee: TransferFee;
}

export interface TokenMetadataFields {
  readonly updateAuthority: Address | null;
  readonly mint: Address;
  readonly name: string;
  readonly symbol: string;
  readonly uri: string;
  readonly additionalMetadata: readonly (readonly [key: string, value: string])[];
}

/** Every risk-relevant Token-2022 mint extension; null (or false) when the mint does not carry it. */
export interface MintExtensions {
  /** All TLV entries in account order, unknown kinds included by number. */
  readonly present: readonly ExtensionEntry[];
  /** Known kinds whose bytes did not decode; their fields below stay null. */
  readonly undecodable: readonly number[];
  /** False when the TLV area ends in a cut-off entry. */
  readonly tlvComplete: boolean;
  /** Can move or burn tokens out of any holder's account. Null also when the extension holds no key. */
  readonly permanentDelegate: Address | null;
  /** Can close the mint once supply is 0 (and so re-create the address). */
  readonly mintCloseAuthority: Address | null;
  readonly transferFeeConfig: TransferFeeConfig | null;
  /** `programId` null = a hook slot with no program (PYUSD): no CPI on transfer, but the authority can add one. */
  readonly transferHook: { readonly authority: Address | null; readonly programId: Address | null } | null;
  /** 'frozen' means every new holder account starts frozen. */
  readonly defaultAccountState: TokenAccountState | null;
  readonly nonTransferable: boolean;
  readonly pausable: { readonly authority: Address | null; readonly paused: boolean } | null;
  readonly confidentialTransferMint: {
    readonly authority: Address | null;
    readonly autoApproveNewAccounts: boolean;
    readonly auditorElgamalPubkey: Address | null;
  } | null;
  readonly confidentialTransferFee: {
    readonly authority: Address | null;
    readonly harvestToMintEnabled: boolean;
  } | null;
  readonly confidentialMintBurn: boolean;
  readonly metadataPointer: {
    readonly authority: Address | null;
    readonly metadataAddress: Address | null;
  } | null;
  readonly tokenMetadata: TokenMetadataFields | null;
  readonly interestBearing: {
    readonly rateAuthority: Address | null;
    readonly initializationTimestamp: bigint;
    readonly preUpdateAverageRate: number;
    readonly lastUpdateTimestamp: bigint;
    readonly currentRate: number;
  } | null;
  readonly scaledUiAmount: {
    readonly authority: Address | null;
    readonly multiplier: number;
    readonly newMultiplierEffectiveTimestamp: bigint;
    readonly newMultiplier: number;
  } | null;
  readonly groupPointer: { readonly authority: Address | null; readonly groupAddress: Address | null } | null;
  readonly group: {
    readonly updateAuthority: Address | null;
    readonly mint: Address;
    readonly size: bigint;
    readonly maxSize: bigint;
  } | null;
  readonly groupMemberPointer: {
    readonly authority: Address | null;
    readonly memberAddress: Address | null;
  } | null;
  readonly groupMember: {
    readonly mint: Address;
    readonly group: Address;
    readonly memberNumber: bigint;
  } | null;
  readonly permissionedBurn: { readonly authority: Address | null } | null;
}

export interface DecodedMint {
  readonly program: TokenProgramKind;
  readonly mintAuthority: Address | null;
  readonly freezeAuthority: Address | null;
  readonly supply: bigint;
  readonly decimals: number;
  readonly isInitialized: boolean;
  /** Empty (nothing present) for SPL Token mints and for Token-2022 mints without extensions. */
  readonly extensions: MintExtensions;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function emptyExtensions(): Mutable<MintExtensions> {
  return {
    present: [],
    undecodable: [],
    tlvComplete: true,
    permanentDelegate: null,
    mintCloseAuthority: null,
    transferFeeConfig: null,
    transferHook: null,
    defaultAccountState: null,
    nonTransferable: false,
    pausable: null,
    confidentialTransferMint: null,
    confidentialTransferFee: null,
    confidentialMintBurn: false,
    metadataPointer: null,
    tokenMetadata: null,
    interestBearing: null,
    scaledUiAmount: null,
    groupPointer: null,
    group: null,
    groupMemberPointer: null,
    groupMember: null,
    permissionedBurn: null,
  };
}

function transferFee(fee: {
  epoch: bigint;
  maximumFee: bigint;
  transferFeeBasisPoints: number;
}): TransferFee {
  return { epoch: fee.epoch, maximumFee: fee.maximumFee, basisPoints: fee.transferFeeBasisPoints };
}

/** Copies one decoded extension into the flat shape. Account-only kinds are ignored here. */
function applyExtension(target: Mutable<MintExtensions>, extension: Extension): void {
  if (!applyControlExtension(target, extension)) applyDescriptionExtension(target, extension);
}

/** What the issuer can do to holders and transfers; false for any other kind. */
function applyControlExtension(target: Mutable<MintExtensions>, extension: Extension): boolean {
  switch (extension.__kind) {
    case 'PermanentDelegate':
      target.permanentDelegate = nonZeroAddress(extension.delegate);
      return true;
    case 'MintCloseAuthority':
      target.mintCloseAuthority = nonZeroAddress(extension.closeAuthority);
      return true;
    case 'TransferFeeConfig':
      target.transferFeeConfig = {
        configAuthority: nonZeroAddress(extension.transferFeeConfigAuthority),
        withdrawWithheldAuthority: nonZeroAddress(extension.withdrawWithheldAuthority),
        withheldAmount: extension.withheldAmount,
        olderTransferFee: transferFee(extension.olderTransferFee),
        newerTransferFee: transferFee(extension.newerTransferFee),
      };
      return true;
    case 'TransferHook':
      target.transferHook = {
        authority: nonZeroAddress(extension.authority),
        programId: nonZeroAddress(extension.programId),
      };
      return true;
    case 'DefaultAccountState':
      target.defaultAccountState = tokenAccountState(extension.state);
      return true;
    case 'NonTransferable':
      target.nonTransferable = true;
      return true;
    case 'PausableConfig':
      target.pausable = { authority: optionalAddress(extension.authority), paused: extension.paused };
      return true;
    case 'ConfidentialTransferMint':
      target.confidentialTransferMint = {
        authority: optionalAddress(extension.authority),
        autoApproveNewAccounts: extension.autoApproveNewAccounts,
        auditorElgamalPubkey: optionalAddress(extension.auditorElgamalPubkey),
      };
      return true;
    case 'ConfidentialTransferFee':
      target.confidentialTransferFee = {
        authority: optionalAddress(extension.authority),
        harvestToMintEnabled: extension.harvestToMintEnabled,
      };
      return true;
    case 'ConfidentialMintBurn':
      target.confidentialMintBurn = true;
      return true;
    case 'InterestBearingConfig':
      target.interestBearing = {
        rateAuthority: nonZeroAddress(extension.rateAuthority),
        initializationTimestamp: extension.initializationTimestamp,
        preUpdateAverageRate: extension.preUpdateAverageRate,
        lastUpdateTimestamp: extension.lastUpdateTimestamp,
        currentRate: extension.currentRate,
      };
      return true;
    case 'ScaledUiAmountConfig':
      target.scaledUiAmount = {
        authority: nonZeroAddress(extension.authority),
        multiplier: extension.multiplier,
        newMultiplierEffectiveTimestamp: extension.newMultiplierEffectiveTimestamp,
        newMultiplier: extension.newMultiplier,
      };
      return true;
    case 'PermissionedBurn':
      target.permissionedBurn = { authority: optionalAddress(extension.authority) };
      return true;
    default:
      return false;
  }
}

/** What the mint says about itself: metadata and groups; false for any other kind. */
function applyDescriptionExtension(target: Mutable<MintExtensions>, extension: Extension): boolean {
  switch (extension.__kind) {
    case 'MetadataPointer':
      target.metadataPointer = {
        authority: optionalAddress(extension.authority),
        metadataAddress: optionalAddress(extension.metadataAddress),
      };
      return true;
    case 'TokenMetadata':
      target.tokenMetadata = {
        updateAuthority: optionalAddress(extension.updateAuthority),
        mint: extension.mint,
        name: extension.name,
        symbol: extension.symbol,
        uri: extension.uri,
        additionalMetadata: [...extension.additionalMetadata.entries()],
      };
      return true;
    case 'GroupPointer':
      target.groupPointer = {
        authority: optionalAddress(extension.authority),
        groupAddress: optionalAddress(extension.groupAddress),
      };
      return true;
    case 'TokenGroup':
      target.group = {
        updateAuthority: optionalAddress(extension.updateAuthority),
        mint: extension.mint,
        size: extension.size,
        maxSize: extension.maxSize,
      };
      return true;
    case 'GroupMemberPointer':
      target.groupMemberPointer = {
        authority: optionalAddress(extension.authority),
        memberAddress: optionalAddress(extension.memberAddress),
      };
      return true;
    case 'TokenGroupMember':
      target.groupMember = {
        mint: extension.mint,
        group: extension.group,
        memberNumber: extension.memberNumber,
      };
      return true;
    default:
      return false;
  }
}

function mintExtensions(data: Uint8Array): MintExtensions {
  const scan = scanExtensions(data);
  const extensions = emptyExtensions();
  extensions.present = scan.entries;
  extensions.undecodable = scan.undecodable;
  extensions.tlvComplete = scan.complete;
  for (const extension of scan.decoded) applyExtension(extensions, extension);
  return extensions;
}

/** Why `data` of this length cannot be a mint of `program`, or null when the length fits. */
function lengthProblem(data: Uint8Array, program: TokenProgramKind): DecodeResult<never> | null {
  const length = data.length;
  if (length < MINT_BASE_SIZE) return notDecoded('truncated', `${length} bytes, a mint has at least 82`);
  if (length === MINT_BASE_SIZE) return null;
  if (length === TOKEN_ACCOUNT_BASE_SIZE) return notDecoded('wrong-kind', '165 bytes: a token account');
  if (length === MULTISIG_SIZE) return notDecoded('wrong-kind', '355 bytes: a token multisig');
  if (program === 'spl-token') return notDecoded('wrong-kind', `${length} bytes: not an SPL Token mint`);
  if (length < TOKEN_ACCOUNT_BASE_SIZE)
    return notDecoded('malformed', `${length} bytes: no Token-2022 layout`);
  const accountType = data[ACCOUNT_TYPE_OFFSET];
  if (accountType === ACCOUNT_TYPE_MINT) return null;
  if (accountType === ACCOUNT_TYPE_ACCOUNT)
    return notDecoded('wrong-kind', 'account type 2: a token account');
  return notDecoded('malformed', `unknown Token-2022 account type ${accountType}`);
}

// Built once: the packages build a new decoder on every call, which costs more than the decode.
const SPL_MINT_DECODER = getSplMintDecoder();
const TOKEN_2022_MINT_DECODER = getToken2022MintDecoder();

/**
 * Decodes a mint owned by `owner` (the account's owner program). Token accounts, multisigs and
 * accounts of other programs come back as a failure with the reason, never as a throw.
 */
export function decodeMint(data: Uint8Array, owner: Address): DecodeResult<DecodedMint> {
  const program = tokenProgramKind(owner);
  if (program === null) return notDecoded('wrong-owner', `owner ${owner} is not a token program`);
  const problem = lengthProblem(data, program);
  if (problem) return problem;
  if (!isCOptionTag(data, 0) || !isCOptionTag(data, 46)) {
    return notDecoded('malformed', 'authority option tag is neither 0 nor 1');
  }
  const baseDecoder = program === 'spl-token' ? SPL_MINT_DECODER : TOKEN_2022_MINT_DECODER;
  const base = tryDecode(() => baseDecoder.decode(data.subarray(0, MINT_BASE_SIZE)), 'mint base');
  if (!base.ok) return base;
  const { mintAuthority, freezeAuthority, supply, decimals, isInitialized } = base.value;
  return decoded({
    program,
    mintAuthority: optionalAddress(mintAuthority),
    freezeAuthority: optionalAddress(freezeAuthority),
    supply,
    decimals,
    isInitialized,
    extensions: data.length > TOKEN_ACCOUNT_BASE_SIZE ? mintExtensions(data) : emptyExtensions(),
  });
}

/** The transfer fee in force at `epoch`: the newer fee from its epoch on, the older one before. */
export function transferFeeAt(config: TransferFeeConfig, epoch: bigint): TransferFee {
  return epoch >= config.newerTransferFee.epoch ? config.newerTransferFee : config.olderTransferFee;
}
