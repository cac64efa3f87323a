import bs58 from 'bs58';
import type { Account } from 'litesvm';
import { addressText, TOKEN_PROGRAM } from '../chain/addresses.js';
import type { SandboxChain } from '../chain/chain.js';
import {
  isMintData,
  isTokenAccountData,
  mintFields,
  tokenAccountFields,
  uiTokenAmount,
} from '../chain/token-accounts.js';
import { invalidParams, RpcError, RpcErrorCode } from './errors.js';
import { type Config, integerParam } from './params.js';

export type AccountEncoding = 'binary' | 'base58' | 'base64' | 'jsonParsed';

export interface DataSlice {
  offset: number;
  length: number;
}

export interface AccountEncodingOptions {
  encoding: AccountEncoding;
  dataSlice?: DataSlice;
}

/** agave refuses base58 beyond this many bytes: encoding is quadratic. */
const MAX_BASE58_BYTES = 128;

export function accountEncodingOf(
  config: Config,
  fallback: AccountEncoding = 'binary',
): AccountEncodingOptions {
  const raw = config.encoding ?? fallback;
  if (raw === 'base64+zstd') {
    // Node 20 has no zstd codec and the project may not add one; clients that ask get a clean refusal.
    throw invalidParams('encoding base64+zstd is not supported by the sandbox; use base64');
  }
  if (raw !== 'binary' && raw !== 'base58' && raw !== 'base64' && raw !== 'jsonParsed') {
    throw invalidParams(
      `unknown variant \`${String(raw)}\`, expected one of \`binary\`, \`base58\`, \`base64\`, \`jsonParsed\`, \`base64+zstd\``,
    );
  }
  const slice = config.dataSlice;
  if (slice === undefined || slice === null) return { encoding: raw };
  if (typeof slice !== 'object') throw invalidParams('invalid type for dataSlice');
  const { offset, length } = slice as Record<string, unknown>;
  return {
    encoding: raw,
    dataSlice: {
      offset: Number(integerParam(offset, 'offset')),
      length: Number(integerParam(length, 'length')),
    },
  };
}

export interface UiAccount {
  lamports: bigint;
  owner: string;
  data: string | [string, string] | { program: string; parsed: unknown; space: number };
  executable: boolean;
  rentEpoch: bigint;
  space: number;
}

export function encodeAccount(
  account: Account,
  options: AccountEncodingOptions,
  chain: SandboxChain,
): UiAccount {
  const full = account.data();
  const owner = addressText(account.owner());
  const base = {
    lamports: account.lamports(),
    owner,
    executable: account.executable(),
    rentEpoch: account.rentEpoch(),
    space: full.length,
  };
  if (options.encoding === 'jsonParsed' && !options.dataSlice) {
    const parsed = parseTokenData(owner, full, chain);
    if (parsed) return { ...base, data: parsed };
  }
  const data = options.dataSlice
    ? full.subarray(options.dataSlice.offset, options.dataSlice.offset + options.dataSlice.length)
    : full;
  if (options.encoding === 'binary' || options.encoding === 'base58') {
    if (data.length > MAX_BASE58_BYTES) {
      throw new RpcError(
        RpcErrorCode.InvalidRequest,
        `Encoded binary (base 58) data should be less than ${MAX_BASE58_BYTES} bytes, please use Base64 encoding.`,
      );
    }
    const text = bs58.encode(data);
    return { ...base, data: options.encoding === 'binary' ? text : [text, 'base58'] };
  }
  // jsonParsed without a parser falls back to base64, as agave does.
  return { ...base, data: [Buffer.from(data).toString('base64'), 'base64'] };
}

const ACCOUNT_STATES = ['uninitialized', 'initialized', 'frozen'] as const;

/** The base fields of agave's spl-token parser; Token-2022 extensions are not parsed. */
function parseTokenData(owner: string, data: Uint8Array, chain: SandboxChain): UiAccount['data'] | null {
  const program = owner === TOKEN_PROGRAM ? 'spl-token' : 'spl-token-2022';
  if (isTokenAccountData(owner, data)) {
    const fields = tokenAccountFields(data);
    const decimals = chain.getAccount(fields.mint)?.data()[44] ?? 0;
    return {
      program,
      space: data.length,
      parsed: {
        type: 'account',
        info: {
          isNative: data[109] === 1,
          mint: fields.mint,
          owner: fields.owner,
          state: ACCOUNT_STATES[fields.state] ?? 'uninitialized',
          tokenAmount: uiTokenAmount(fields.amount, decimals),
        },
      },
    };
  }
  if (isMintData(owner, data)) {
    const fields = mintFields(data);
    return {
      program,
      space: data.length,
      parsed: { type: 'mint', info: { ...fields, supply: fields.supply.toString() } },
    };
  }
  return null;
}

/** Decodes a wire transaction parameter; agave's default for send/simulate is base58. */
export function decodeWireParam(value: unknown, config: Config): Uint8Array {
  if (typeof value !== 'string') throw invalidParams('invalid type: expected an encoded transaction string');
  const encoding = config.encoding ?? 'base58';
  if (encoding === 'base64') return new Uint8Array(Buffer.from(value, 'base64'));
  if (encoding === 'base58') {
    const bytes = bs58.decodeUnsafe(value);
    if (!bytes) throw invalidParams('invalid base58 encoding');
    return bytes;
  }
  throw invalidParams(`unsupported encoding: ${String(encoding)}. Supported encodings: base58, base64`);
}
