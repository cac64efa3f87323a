/**
 * SPL Token and Token-2022 token accounts (holder balances). The 165-byte base is decoded with the
 * program packages' `getTokenDecoder()`; Token-2022 account extensions come from the tolerant TLV walk.
 */

import { type Address, isSome } from '@solana/kit';
import { getTokenDecoder as getSplTokenDecoder } from '@solana-program/token';
import { getTokenDecoder as getToken2022TokenDecoder } from '@solana-program/token-2022';
import { optionalAddress } from './optional-address.js';
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

export interface TokenAccountExtensions {
  /** All TLV entries in account order, unknown kinds included by number. */
  readonly present: readonly ExtensionEntry[];
  readonly undecodable: readonly number[];
  readonly tlvComplete: boolean;
  /** Transfer fees withheld in this account (TransferFeeAmount), null without the extension. */
  readonly withheldTransferFee: bigint | null;
  readonly immutableOwner: boolean;
  /** MemoTransfer: incoming transfers must carry a memo. */
  readonly requireIncomingTransferMemos: boolean;
  /** CpiGuard: token operations through CPI are locked. */
  readonly cpiGuardLocked: boolean;
  /** The balance can be held confidentially, so `amount` may not be the whole holding. */
  readonly confidentialTransfer: boolean;
}

export interface DecodedTokenAccount {
  readonly program: TokenProgramKind;
  readonly mint: Address;
  /** The wallet (or PDA) that owns the tokens — not the account's owner program. */
  readonly owner: Address;
  readonly amount: bigint;
  readonly delegate: Address | null;
  readonly delegatedAmount: bigint;
  readonly state: TokenAccountState;
  /** Wrapped-SOL accounts: the rent-exempt reserve in lamports; null for every other mint. */
  readonly isNative: bigint | null;
  readonly closeAuthority: Address | null;
  readonly extensions: TokenAccountExtensions;
}

const NO_EXTENSIONS: TokenAccountExtensions = {
  present: [],
  undecodable: [],
  tlvComplete: true,
  withheldTransferFee: null,
  immutableOwner: false,
  requireIncomingTransferMemos: false,
  cpiGuardLocked: false,
  confidentialTransfer: false,
};

function accountExtensions(data: Uint8Array): TokenAccountExtensions {
  const scan = scanExtensions(data);
  const result = {
    ...NO_EXTENSIONS,
    present: scan.entries,
    undecodable: scan.undecodable,
    tlvComplete: scan.complete,
  };
  for (const extension of scan.decoded) {
    if (extension.__kind === 'TransferFeeAmount') result.withheldTransferFee = extension.withheldAmount;
    if (extension.__kind === 'ImmutableOwner') result.immutableOwner = true;
    if (extension.__kind === 'MemoTransfer') {
      result.requireIncomingTransferMemos = extension.requireIncomingTransferMemos;
    }
    if (extension.__kind === 'CpiGuard') result.cpiGuardLocked = extension.lockCpi;
    if (extension.__kind === 'ConfidentialTransferAccount') result.confidentialTransfer = true;
  }
  return result;
}

function lengthProblem(data: Uint8Array, program: TokenProgramKind): DecodeResult<never> | null {
  const length = data.length;
  if (length === MINT_BASE_SIZE) return notDecoded('wrong-kind', '82 bytes: a mint');
  if (length < TOKEN_ACCOUNT_BASE_SIZE) {
    return notDecoded('truncated', `${length} bytes, a token account has at least 165`);
  }
  if (length === TOKEN_ACCOUNT_BASE_SIZE) return null;
  if (length === MULTISIG_SIZE) return notDecoded('wrong-kind', '355 bytes: a token multisig');
  if (program === 'spl-token') return notDecoded('wrong-kind', `${length} bytes: not an SPL token account`);
  const accountType = data[ACCOUNT_TYPE_OFFSET];
  if (accountType === ACCOUNT_TYPE_ACCOUNT) return null;
  if (accountType === ACCOUNT_TYPE_MINT) return notDecoded('wrong-kind', 'account type 1: a mint');
  return notDecoded('malformed', `unknown Token-2022 account type ${accountType}`);
}

// Built once: the packages build a new decoder on every call, which costs more than the decode.
const SPL_TOKEN_DECODER = getSplTokenDecoder();
const TOKEN_2022_TOKEN_DECODER = getToken2022TokenDecoder();

/** Decodes a token account owned by `owner` (the token program that owns the account). */
export function decodeTokenAccount(data: Uint8Array, owner: Address): DecodeResult<DecodedTokenAccount> {
  const program = tokenProgramKind(owner);
  if (program === null) return notDecoded('wrong-owner', `owner ${owner} is not a token program`);
  const problem = lengthProblem(data, program);
  if (problem) return problem;
  if (!isCOptionTag(data, 72) || !isCOptionTag(data, 109) || !isCOptionTag(data, 129)) {
    return notDecoded('malformed', 'option tag is neither 0 nor 1');
  }
  const state = tokenAccountState(data[108] ?? 0);
  if (state === null) return notDecoded('malformed', `account state ${data[108]}`);
  const baseDecoder = program === 'spl-token' ? SPL_TOKEN_DECODER : TOKEN_2022_TOKEN_DECODER;
  const base = tryDecode(
    () => baseDecoder.decode(data.subarray(0, TOKEN_ACCOUNT_BASE_SIZE)),
    'token account',
  );
  if (!base.ok) return base;
  const account = base.value;
  return decoded({
    program,
    mint: account.mint,
    owner: account.owner,
    amount: account.amount,
    delegate: optionalAddress(account.delegate),
    delegatedAmount: account.delegatedAmount,
    state,
    isNative: isSome(account.isNative) ? account.isNative.value : null,
    closeAuthority: optionalAddress(account.closeAuthority),
    extensions: data.length > TOKEN_ACCOUNT_BASE_SIZE ? accountExtensions(data) : NO_EXTENSIONS,
  });
}
