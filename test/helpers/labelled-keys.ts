/**
 * Deterministic test identities named by a label: the same label always gives the same
 * address or signature, so expected evidence can be written down in a test.
 */
import { createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import { type Address, getAddressDecoder, getBase58Decoder } from '@solana/kit';

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The public key of a deterministic ed25519 keypair: an on-curve address one person can sign for. */
export function wallet(label: string): Address {
  const seed = createHash('sha256').update(label).digest();
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  return getAddressDecoder().decode(new Uint8Array(spki.subarray(-32)));
}

/** A 64-byte base58 transaction signature. */
export function signature(label: string): string {
  return getBase58Decoder().decode(new Uint8Array(createHash('sha512').update(label).digest()));
}
