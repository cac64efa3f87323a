/**
 * Deterministic keypairs: every scenario key is derived from (seed, label), so a seeded sandbox has the
 * same addresses on every start — the manifest, docs and hand-written curl examples stay valid.
 * These are sandbox keys only; the seed is not a secret.
 */
import { createHash } from 'node:crypto';
import { createKeyPairSignerFromPrivateKeyBytes, type KeyPairSigner } from '@solana/kit';

export const DEFAULT_SCENARIO_SEED = 'solana-risk-scan/sandbox-scenarios/v1';

export function privateKeyBytes(seed: string, label: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(`${seed}\u0000${label}`).digest());
}

export class KeyRing {
  private readonly signers = new Map<string, Promise<KeyPairSigner>>();

  constructor(readonly seed: string = DEFAULT_SCENARIO_SEED) {}

  /** The signer for `label`; the same label always gives the same key. */
  signer(label: string): Promise<KeyPairSigner> {
    let signer = this.signers.get(label);
    if (!signer) {
      signer = createKeyPairSignerFromPrivateKeyBytes(privateKeyBytes(this.seed, label));
      this.signers.set(label, signer);
    }
    return signer;
  }
}
