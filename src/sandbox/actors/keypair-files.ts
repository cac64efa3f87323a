/**
 * The actors' keys as Solana CLI keypair files beside the sandbox manifest, so a user can act on a
 * watched subject with any wallet tool (or `risk-scan`'s own), and the manifest's subjects with
 * each action's `actor.keypair` set to its file.
 */
import { join } from 'node:path';
import {
  createKeyPairSignerFromPrivateKeyBytes,
  getAddressEncoder,
  getBase58Encoder,
  type KeyPairSigner,
} from '@solana/kit';
import { writeKeypairFile } from '../../client/keypair-file.js';
import type { ScenarioSubject } from '../scenarios/manifest.js';

/** An actor's signer, from the base58 private key (its 32-byte seed) the manifest carries. */
export function actorSigner(actor: { readonly privateKey: string }): Promise<KeyPairSigner> {
  return createKeyPairSignerFromPrivateKeyBytes(new Uint8Array(getBase58Encoder().encode(actor.privateKey)));
}

/** Writes `<dir>/<address>.json` for every actor (once each); returns the subjects with the paths. */
export async function writeActorKeypairs(
  dir: string,
  subjects: readonly ScenarioSubject[],
): Promise<ScenarioSubject[]> {
  const written = new Map<string, string>();
  const out: ScenarioSubject[] = [];
  for (const subject of subjects) {
    if (!('actions' in subject) || subject.actions === undefined) {
      out.push(subject);
      continue;
    }
    const actions = [];
    for (const action of subject.actions) {
      const { address, privateKey } = action.actor;
      let path = written.get(address);
      if (path === undefined) {
        path = join(dir, `${address}.json`);
        const seed = new Uint8Array(getBase58Encoder().encode(privateKey));
        const signer = await actorSigner(action.actor);
        const bytes = new Uint8Array(64);
        bytes.set(seed, 0);
        bytes.set(getAddressEncoder().encode(signer.address), 32);
        await writeKeypairFile(path, { signer, bytes });
        written.set(address, path);
      }
      actions.push({ ...action, actor: { ...action.actor, keypair: path } });
    }
    out.push({ ...subject, actions } as ScenarioSubject);
  }
  return out;
}
