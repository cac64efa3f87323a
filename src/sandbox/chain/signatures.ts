import { createPublicKey, verify } from 'node:crypto';
import { addressBytes } from './addresses.js';
import type { WireTransaction } from './wire.js';

// SPKI DER header for a raw 32-byte Ed25519 public key.
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * Verifies every required signature, as an RPC node does before preflight. Done here rather than by LiteSVM
 * so a bad signature is reported as mainnet reports it (-32003) instead of as a simulated SignatureFailure.
 */
export function verifySignatures(tx: WireTransaction): boolean {
  return tx.signatures.every((signature, index) => {
    const signer = tx.staticAccounts[index];
    if (!signer) return false;
    const key = createPublicKey({
      key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(addressBytes(signer))]),
      format: 'der',
      type: 'spki',
    });
    return verify(null, tx.message, key, signature);
  });
}
