/**
 * Unsigned wire transactions, as a dapp hands one to a wallet to sign: the fee payer and every
 * signer are plain addresses, the signatures all zero. /simulate/tx takes them as they are.
 */
import {
  type Address,
  appendTransactionMessageInstructions,
  type Blockhash,
  compileTransaction,
  compressTransactionMessageUsingAddressLookupTables,
  createTransactionMessage,
  getBase64Decoder,
  getTransactionEncoder,
  type Instruction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit';

/** Any blockhash will do: the simulation replaces it. */
export const PLACEHOLDER_BLOCKHASH = '11111111111111111111111111111111' as Blockhash;

/** Base64 of the legacy (or v0) wire transaction of `instructions`, paid by `feePayer`, unsigned. */
export function unsignedWireTransaction(
  feePayer: Address,
  instructions: readonly Instruction[],
  options: {
    version?: 'legacy' | 0;
    blockhash?: Blockhash;
    /** v0 only: tables whose addresses the message loads instead of naming them. */
    lookupTables?: Readonly<Record<Address, readonly Address[]>>;
  } = {},
): string {
  const message = pipe(
    createTransactionMessage({ version: options.version ?? 'legacy' }),
    (m) => setTransactionMessageFeePayer(feePayer, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: options.blockhash ?? PLACEHOLDER_BLOCKHASH, lastValidBlockHeight: 0n },
        m,
      ),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const compressed =
    options.lookupTables === undefined
      ? message
      : compressTransactionMessageUsingAddressLookupTables(
          message as never,
          options.lookupTables as Record<Address, Address[]>,
        );
  const wire = getTransactionEncoder().encode(compileTransaction(compressed as typeof message));
  return getBase64Decoder().decode(wire);
}
