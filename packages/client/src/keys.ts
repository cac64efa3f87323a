/** The payer's signer from the 64-byte Solana secret key (seed + public key, as a keypair file holds). */
import { createKeyPairSignerFromBytes, type KeyPairSigner } from '@solana/kit';

export function signerFromSecretKey(secretKey: Uint8Array): Promise<KeyPairSigner> {
  return createKeyPairSignerFromBytes(secretKey);
}
