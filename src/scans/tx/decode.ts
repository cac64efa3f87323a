/**
 * A landed transaction, decoded from its base64 wire bytes (never from jsonParsed), with the
 * accounts its address lookup tables loaded appended in the order the runtime uses.
 */
import {
  type Address,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
} from '@solana/kit';

export interface DecodedInstruction {
  readonly program: Address;
  readonly accounts: readonly Address[];
  readonly data: Uint8Array;
}

export interface DecodedTransaction {
  /** Static accounts, then lookup-table writable, then lookup-table readonly. */
  readonly accountKeys: readonly Address[];
  /** The first `numSignerAccounts` static accounts; index 0 is the fee payer. */
  readonly signers: readonly Address[];
  readonly instructions: readonly DecodedInstruction[];
  readonly signatureCount: number;
}

export function decodeTransaction(
  base64Wire: string,
  loaded: { readonly writable: readonly string[]; readonly readonly: readonly string[] },
): DecodedTransaction {
  const tx = getTransactionDecoder().decode(getBase64Encoder().encode(base64Wire));
  const message = getCompiledTransactionMessageDecoder().decode(tx.messageBytes);
  if (message.version === 1) throw new Error('version 1 transaction messages are not supported');
  const accountKeys = [
    ...message.staticAccounts,
    ...(loaded.writable as Address[]),
    ...(loaded.readonly as Address[]),
  ];
  const instructions = message.instructions.map((ix) => ({
    program: accountKeys[ix.programAddressIndex]!,
    accounts: (ix.accountIndices ?? []).map((i) => accountKeys[i]!),
    data: new Uint8Array(ix.data ?? new Uint8Array()),
  }));
  return {
    accountKeys,
    signers: message.staticAccounts.slice(0, message.header.numSignerAccounts),
    instructions,
    signatureCount: Object.keys(tx.signatures).length,
  };
}
