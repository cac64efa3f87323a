import { createHash } from 'node:crypto';
import type { TransactionErrorJson } from './tx-errors.js';
import { parseWireTransaction, type TransactionVersion } from './wire.js';

export interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: { amount: string; decimals: number; uiAmount: number; uiAmountString: string };
}

export interface InnerInstructionSet {
  index: number;
  instructions: { programIdIndex: number; accounts: number[]; data: string; stackHeight: number }[];
}

export interface LoadedAddresses {
  writable: string[];
  readonly: string[];
}

/** `meta` as mainnet's getTransaction returns it (encoding "json"). */
export interface TransactionMeta {
  err: TransactionErrorJson | null;
  status: { Ok: null } | { Err: TransactionErrorJson };
  fee: bigint;
  preBalances: bigint[];
  postBalances: bigint[];
  innerInstructions: InnerInstructionSet[];
  logMessages: string[];
  preTokenBalances: TokenBalance[];
  postTokenBalances: TokenBalance[];
  rewards: [];
  loadedAddresses: LoadedAddresses;
  computeUnitsConsumed: bigint;
  returnData?: { programId: string; data: [string, 'base64'] };
}

export interface TransactionRecord {
  signature: string;
  slot: bigint;
  blockTime: number;
  /** The signed wire transaction as sent. */
  wire: Uint8Array;
  version: TransactionVersion;
  /** Static keys, then lookup-table writable, then lookup-table readonly: the order meta indexes use. */
  accountKeys: string[];
  /** Mainnet's memo field for getSignaturesForAddress, or null. */
  memo: string | null;
  meta: TransactionMeta;
}

/**
 * Every transaction that landed (successful or failed), by signature and by address. Per-address lists
 * are kept oldest first, so appending is O(1) and readers walk them backwards for mainnet's newest-first order.
 */
/** The status cache's other key: a message resent with other signatures is the same transaction. */
export function messageKey(message: Uint8Array): string {
  return createHash('sha256').update(message).digest('base64');
}

export class TransactionHistory {
  private readonly bySignature = new Map<string, TransactionRecord>();
  private readonly byAddress = new Map<string, string[]>();
  private readonly byMessage = new Map<string, string>();

  get size(): number {
    return this.bySignature.size;
  }

  add(record: TransactionRecord): void {
    this.bySignature.set(record.signature, record);
    this.byMessage.set(messageKey(parseWireTransaction(record.wire).message), record.signature);
    for (const address of new Set(record.accountKeys)) {
      const list = this.byAddress.get(address);
      if (list) list.push(record.signature);
      else this.byAddress.set(address, [record.signature]);
    }
  }

  get(signature: string): TransactionRecord | undefined {
    return this.bySignature.get(signature);
  }

  /** Whether a transaction with this first signature or this message was already processed. */
  processed(signature: string, message: Uint8Array): boolean {
    return this.bySignature.has(signature) || this.byMessage.has(messageKey(message));
  }

  /** Signatures touching `address`, oldest first. */
  signaturesFor(address: string): readonly string[] {
    return this.byAddress.get(address) ?? [];
  }

  records(): IterableIterator<TransactionRecord> {
    return this.bySignature.values();
  }
}
