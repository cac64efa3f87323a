import { addressText, TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from './addresses.js';

/** Token-account layout offsets shared by SPL Token and Token-2022. */
export const TOKEN_ACCOUNT_SIZE = 165;
export const MINT_SIZE = 82;
const ACCOUNT_TYPE_OFFSET = 165;
const ACCOUNT_TYPE_MINT = 1;
const ACCOUNT_TYPE_ACCOUNT = 2;

export interface UiTokenAmount {
  amount: string;
  decimals: number;
  uiAmount: number;
  uiAmountString: string;
}

export function isTokenProgram(owner: string): boolean {
  return owner === TOKEN_PROGRAM || owner === TOKEN_2022_PROGRAM;
}

export function isTokenAccountData(owner: string, data: Uint8Array): boolean {
  if (owner === TOKEN_PROGRAM) return data.length === TOKEN_ACCOUNT_SIZE;
  if (owner !== TOKEN_2022_PROGRAM) return false;
  return (
    data.length === TOKEN_ACCOUNT_SIZE ||
    (data.length > TOKEN_ACCOUNT_SIZE && data[ACCOUNT_TYPE_OFFSET] === ACCOUNT_TYPE_ACCOUNT)
  );
}

export function isMintData(owner: string, data: Uint8Array): boolean {
  if (owner === TOKEN_PROGRAM) return data.length === MINT_SIZE;
  if (owner !== TOKEN_2022_PROGRAM) return false;
  return (
    data.length === MINT_SIZE ||
    (data.length > TOKEN_ACCOUNT_SIZE && data[ACCOUNT_TYPE_OFFSET] === ACCOUNT_TYPE_MINT)
  );
}

export function readU64(data: Uint8Array, offset: number): bigint {
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(offset, true);
}

export interface TokenAccountFields {
  mint: string;
  owner: string;
  amount: bigint;
  state: number;
}

export function tokenAccountFields(data: Uint8Array): TokenAccountFields {
  return {
    mint: addressText(data.subarray(0, 32)),
    owner: addressText(data.subarray(32, 64)),
    amount: readU64(data, 64),
    state: data[108] ?? 0,
  };
}

export interface MintFields {
  mintAuthority: string | null;
  supply: bigint;
  decimals: number;
  isInitialized: boolean;
  freezeAuthority: string | null;
}

export function mintFields(data: Uint8Array): MintFields {
  return {
    mintAuthority: data[0] === 1 ? addressText(data.subarray(4, 36)) : null,
    supply: readU64(data, 36),
    decimals: data[44] ?? 0,
    isInitialized: data[45] === 1,
    freezeAuthority: data[46] === 1 ? addressText(data.subarray(50, 82)) : null,
  };
}

/** The RPC's UiTokenAmount: exact decimal string, plus the lossy float mainnet also sends. */
export function uiTokenAmount(amount: bigint, decimals: number): UiTokenAmount {
  const digits = amount.toString().padStart(decimals + 1, '0');
  const whole = decimals === 0 ? digits : digits.slice(0, -decimals);
  const fraction = decimals === 0 ? '' : digits.slice(-decimals).replace(/0+$/, '');
  const uiAmountString = fraction ? `${whole}.${fraction}` : whole;
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString };
}
