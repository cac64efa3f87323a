import { addressText } from './addresses.js';

export type TransactionVersion = 'legacy' | 0;

export interface MessageHeader {
  numRequiredSignatures: number;
  numReadonlySignedAccounts: number;
  numReadonlyUnsignedAccounts: number;
}

export interface WireInstruction {
  programIdIndex: number;
  accounts: number[];
  data: Uint8Array;
}

export interface WireLookup {
  accountKey: string;
  writableIndexes: number[];
  readonlyIndexes: number[];
}

/** A decoded wire transaction, with the byte offset of its blockhash so it can be replaced in place. */
export interface WireTransaction {
  bytes: Uint8Array;
  signatures: Uint8Array[];
  message: Uint8Array;
  version: TransactionVersion;
  header: MessageHeader;
  staticAccounts: string[];
  recentBlockhash: string;
  blockhashOffset: number;
  instructions: WireInstruction[];
  addressTableLookups: WireLookup[];
}

export class MalformedTransactionError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'MalformedTransactionError';
  }
}

/** The largest packet a validator accepts (PACKET_DATA_SIZE). */
export const MAX_TRANSACTION_BYTES = 1232;

class Reader {
  offset = 0;
  constructor(private readonly bytes: Uint8Array) {}

  byte(): number {
    const value = this.bytes[this.offset];
    if (value === undefined) throw new MalformedTransactionError('io error: failed to fill whole buffer');
    this.offset++;
    return value;
  }

  shortVec(): number {
    let value = 0;
    for (let shift = 0; shift < 21; shift += 7) {
      const byte = this.byte();
      value |= (byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return value;
    }
    throw new MalformedTransactionError('invalid compact-u16');
  }

  take(length: number): Uint8Array {
    if (this.offset + length > this.bytes.length) {
      throw new MalformedTransactionError('io error: failed to fill whole buffer');
    }
    const slice = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return slice;
  }
}

export function parseWireTransaction(bytes: Uint8Array): WireTransaction {
  const reader = new Reader(bytes);
  const signatures: Uint8Array[] = [];
  const signatureCount = reader.shortVec();
  for (let i = 0; i < signatureCount; i++) signatures.push(reader.take(64));
  const messageStart = reader.offset;
  let version: TransactionVersion = 'legacy';
  let first = reader.byte();
  if (first & 0x80) {
    const number = first & 0x7f;
    if (number !== 0) throw new MalformedTransactionError(`unsupported transaction version ${number}`);
    version = 0;
    first = reader.byte();
  }
  const header: MessageHeader = {
    numRequiredSignatures: first,
    numReadonlySignedAccounts: reader.byte(),
    numReadonlyUnsignedAccounts: reader.byte(),
  };
  const staticAccounts: string[] = [];
  const keyCount = reader.shortVec();
  for (let i = 0; i < keyCount; i++) staticAccounts.push(addressText(reader.take(32)));
  const blockhashOffset = reader.offset;
  const recentBlockhash = addressText(reader.take(32));
  const instructions: WireInstruction[] = [];
  const instructionCount = reader.shortVec();
  for (let i = 0; i < instructionCount; i++) {
    const programIdIndex = reader.byte();
    const accounts = [...reader.take(reader.shortVec())];
    const data = reader.take(reader.shortVec());
    instructions.push({ programIdIndex, accounts, data });
  }
  const addressTableLookups: WireLookup[] = [];
  if (version === 0) {
    const lookupCount = reader.shortVec();
    for (let i = 0; i < lookupCount; i++) {
      const accountKey = addressText(reader.take(32));
      const writableIndexes = [...reader.take(reader.shortVec())];
      const readonlyIndexes = [...reader.take(reader.shortVec())];
      addressTableLookups.push({ accountKey, writableIndexes, readonlyIndexes });
    }
  }
  if (reader.offset !== bytes.length) throw new MalformedTransactionError('trailing bytes after message');
  if (signatureCount !== header.numRequiredSignatures) {
    throw new MalformedTransactionError('signature count does not match header');
  }
  if (staticAccounts.length < header.numRequiredSignatures || staticAccounts.length === 0) {
    throw new MalformedTransactionError('too few account keys');
  }
  for (const ix of instructions) {
    if (ix.programIdIndex >= staticAccounts.length)
      throw new MalformedTransactionError('invalid program index');
  }
  return {
    bytes,
    signatures,
    message: bytes.subarray(messageStart),
    version,
    header,
    staticAccounts,
    recentBlockhash,
    blockhashOffset,
    instructions,
    addressTableLookups,
  };
}

/** Whether the static account at `index` is writable, from the message header's counts. */
export function isStaticWritable(header: MessageHeader, keyCount: number, index: number): boolean {
  if (index < header.numRequiredSignatures) {
    return index < header.numRequiredSignatures - header.numReadonlySignedAccounts;
  }
  return index < keyCount - header.numReadonlyUnsignedAccounts;
}
