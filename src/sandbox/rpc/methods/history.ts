import bs58 from 'bs58';
import type { Commitment, SandboxChain } from '../../chain/chain.js';
import type { TransactionRecord } from '../../chain/history.js';
import { parseWireTransaction } from '../../chain/wire.js';
import { type MethodTable, withContext } from '../context.js';
import { invalidParams, RpcError, RpcErrorCode } from '../errors.js';
import {
  addressParam,
  arrayParam,
  type Config,
  commitmentOf,
  configParam,
  optionalBoolean,
  optionalInteger,
  optionalString,
  signatureParam,
} from '../params.js';

const MAX_SIGNATURES_LIMIT = 1000;
const MAX_STATUS_INPUTS = 256;
/** Slots a node keeps in its status cache; older transactions need searchTransactionHistory. */
const STATUS_CACHE_SLOTS = 300n;

/** getTransaction and getSignaturesForAddress refuse `processed`, as agave does. */
function historyCommitment(config: Config): Commitment {
  const commitment = commitmentOf(config);
  if (commitment === 'processed') {
    throw invalidParams('Method does not support commitment below `confirmed`');
  }
  return commitment;
}

function statusOf(chain: SandboxChain, record: TransactionRecord) {
  const commitment = chain.commitmentOf(record);
  return {
    slot: record.slot,
    confirmations: commitment === 'finalized' ? null : chain.slot - record.slot,
    err: record.meta.err,
    status: record.meta.status,
    confirmationStatus: commitment,
  };
}

function renderTransaction(record: TransactionRecord, encoding: string, maxVersion: bigint | undefined) {
  if (record.version === 0 && (maxVersion === undefined || maxVersion < 0n)) {
    throw new RpcError(
      RpcErrorCode.UnsupportedTransactionVersion,
      'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
    );
  }
  const versioned = maxVersion === undefined ? {} : { version: record.version };
  const base = { slot: record.slot, blockTime: record.blockTime, ...versioned, meta: record.meta };
  if (encoding === 'base64') {
    return { ...base, transaction: [Buffer.from(record.wire).toString('base64'), 'base64'] };
  }
  if (encoding === 'base58') return { ...base, transaction: [bs58.encode(record.wire), 'base58'] };
  const tx = parseWireTransaction(record.wire);
  const message = {
    header: tx.header,
    accountKeys: tx.staticAccounts,
    recentBlockhash: tx.recentBlockhash,
    instructions: tx.instructions.map((ix) => ({
      programIdIndex: ix.programIdIndex,
      accounts: ix.accounts,
      data: bs58.encode(ix.data),
      stackHeight: null,
    })),
    ...(tx.version === 0 ? { addressTableLookups: tx.addressTableLookups } : {}),
  };
  return { ...base, transaction: { signatures: tx.signatures.map((s) => bs58.encode(s)), message } };
}

export const historyMethods: MethodTable = {
  getSignaturesForAddress: (chain, [address, config]) => {
    const key = addressParam(address);
    const options = configParam(config);
    const commitment = historyCommitment(options);
    const limit = Number(optionalInteger(options, 'limit') ?? BigInt(MAX_SIGNATURES_LIMIT));
    if (limit < 1 || limit > MAX_SIGNATURES_LIMIT)
      throw invalidParams(`Invalid limit; max ${MAX_SIGNATURES_LIMIT}`);
    const before = optionalString(options, 'before');
    const until = optionalString(options, 'until');
    if (before !== undefined) signatureParam(before);
    if (until !== undefined) signatureParam(until);
    const signatures = chain.signaturesFor(key);
    let index = signatures.length - 1;
    if (before !== undefined) index = signatures.lastIndexOf(before) - 1;
    const out = [];
    for (; index >= 0 && out.length < limit; index--) {
      const signature = signatures[index]!;
      if (signature === until) break;
      const record = chain.transaction(signature);
      if (!record || !chain.isVisible(record, commitment)) continue;
      out.push({
        signature,
        slot: record.slot,
        err: record.meta.err,
        memo: record.memo,
        blockTime: record.blockTime,
        confirmationStatus: chain.commitmentOf(record),
      });
    }
    return out;
  },
  getTransaction: (chain, [signature, config]) => {
    const key = signatureParam(signature);
    const options: Config = typeof config === 'string' ? { encoding: config } : configParam(config);
    const commitment = historyCommitment(options);
    const encoding = optionalString(options, 'encoding') ?? 'json';
    if (!['json', 'jsonParsed', 'base64', 'base58'].includes(encoding)) {
      throw invalidParams(
        `unknown variant \`${encoding}\`, expected one of \`binary\`, \`base64\`, \`base58\`, \`json\`, \`jsonParsed\``,
      );
    }
    if (encoding === 'jsonParsed')
      throw invalidParams('encoding jsonParsed is not supported by the sandbox; use json or base64');
    const record = chain.transaction(key);
    if (!record || !chain.isVisible(record, commitment)) return null;
    return renderTransaction(record, encoding, optionalInteger(options, 'maxSupportedTransactionVersion'));
  },
  getSignatureStatuses: (chain, [signatures, config]) => {
    const keys = arrayParam(signatures, 'signatures');
    if (keys.length > MAX_STATUS_INPUTS)
      throw invalidParams(`Too many inputs provided; max ${MAX_STATUS_INPUTS}`);
    const validated = keys.map(signatureParam);
    const search = optionalBoolean(configParam(config), 'searchTransactionHistory');
    const slot = chain.slot;
    return withContext(
      chain,
      validated.map((signature) => {
        const record = chain.transaction(signature);
        if (!record) return null;
        if (!search && slot - record.slot > STATUS_CACHE_SLOTS) return null;
        return statusOf(chain, record);
      }),
    );
  },
};
