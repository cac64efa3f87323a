/**
 * The body of POST /simulate/tx, checked before any payment: JSON `{"transaction": "<base64>"}`
 * whose bytes are one legacy or v0 wire transaction of at most 1232 bytes. Pure.
 *
 * What a payment buys is named by the sha256 of those bytes: the same transaction sent as other
 * JSON (spacing, key order) is the same purchase, any other transaction another.
 */
import { createHash } from 'node:crypto';
import {
  getCompiledTransactionMessageDecoder,
  getCompiledTransactionMessageEncoder,
  getTransactionDecoder,
} from '@solana/kit';
import { MAX_TRANSACTION_BYTES } from '../../catalog.js';
import { type BodyRefusal, refuseBody } from '../../contract/body-schema.js';
import { errorMessage } from '../../errors.js';
import { reason } from '../../reasons.js';

export interface WireTransaction {
  /** Canonical base64 of the wire bytes: the scan's subject. */
  readonly base64: string;
  /** Hex sha256 of the wire bytes. */
  readonly sha256: string;
  readonly bytes: number;
}

export type BodyCheck = { readonly ok: true; readonly transaction: WireTransaction } | BodyRefusal;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Accounts one transaction can name (static and looked up): instructions index them with a u8. */
export const MAX_ACCOUNT_KEYS = 256;

/** Why these bytes are not one transaction, or null when they are. */
export function transactionProblem(bytes: Uint8Array): string | null {
  try {
    const tx = getTransactionDecoder().decode(bytes);
    const message = getCompiledTransactionMessageDecoder().decode(tx.messageBytes);
    if (message.version === 1) return 'version 1 transaction messages are not supported';
    const reencoded = getCompiledTransactionMessageEncoder().encode(message);
    if (reencoded.length !== tx.messageBytes.length) return 'it has bytes after the end of its message';
    const signers = message.header.numSignerAccounts;
    if (Object.keys(tx.signatures).length !== signers) {
      return `it carries ${Object.keys(tx.signatures).length} signature slot(s) for ${signers} signer(s)`;
    }
    const tables = 'addressTableLookups' in message ? (message.addressTableLookups ?? []) : [];
    const lookups = tables.reduce((n, l) => n + l.writableIndexes.length + l.readonlyIndexes.length, 0);
    const accounts = message.staticAccounts.length + lookups;
    // Instructions index accounts with one byte: the runtime refuses more than 256.
    if (accounts > MAX_ACCOUNT_KEYS)
      return `it names ${accounts} accounts; a transaction can name at most ${MAX_ACCOUNT_KEYS}`;
    for (const ix of message.instructions) {
      const indexes = [ix.programAddressIndex, ...(ix.accountIndices ?? [])];
      if (indexes.some((i) => i >= accounts))
        return 'an instruction names an account the message does not have';
    }
    if (message.instructions.length === 0) return 'it has no instructions';
    return null;
  } catch (e) {
    return `it does not decode as a Solana transaction (${errorMessage(e)})`;
  }
}

/** The transaction a body carries, or why it carries none. */
export function checkSimulateBody(text: string, field = 'transaction'): BodyCheck {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return refuseBody(reason('body_not_json', { shape: `{"${field}": "<base64 wire transaction>"}` }));
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return refuseBody(reason('body_not_object', { shape: `{"${field}": "<base64 wire transaction>"}` }));
  }
  const extra = Object.keys(json).filter((k) => k !== field);
  if (extra.length > 0)
    return refuseBody(reason('body_fields_unknown', { fields: extra.slice(0, 5).join(', ') }));
  const value = (json as Record<string, unknown>)[field];
  if (typeof value !== 'string' || value.length === 0) {
    return refuseBody(reason('transaction_missing', { field }));
  }
  if (value.length % 4 !== 0 || !BASE64.test(value)) {
    return refuseBody(reason('transaction_not_base64', { field }));
  }
  const bytes = new Uint8Array(Buffer.from(value, 'base64'));
  if (bytes.length > MAX_TRANSACTION_BYTES) {
    return refuseBody(
      reason('transaction_too_large', { field, bytes: bytes.length, max: MAX_TRANSACTION_BYTES }),
    );
  }
  const problem = transactionProblem(bytes);
  if (problem !== null) return refuseBody(reason('transaction_malformed', { field, problem }));
  return {
    ok: true,
    transaction: {
      base64: Buffer.from(bytes).toString('base64'),
      sha256: createHash('sha256').update(bytes).digest('hex'),
      bytes: bytes.length,
    },
  };
}
