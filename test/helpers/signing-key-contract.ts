/**
 * The behaviour every place a generated signing key is kept must have (STATE_DIR, Redis), run
 * against each by its own test file: the first key written there is every taker's, now and
 * after a restart, and a damaged key is refused with a StateError that says what to do.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SigningKey } from '../../src/signing/key.js';
import { StateError } from '../../src/state/error.js';

export interface KeyPlace {
  /** The place's key, as a starting process takes it. */
  take(): Promise<SigningKey>;
}

export interface KeyPlaceBackend<P extends KeyPlace> {
  /** A new, empty place. */
  place(): Promise<P>;
  /** Fault injection: overwrites the place's key with text that is no key. */
  damage(place: P): Promise<unknown>;
  /** What a refusal of a damaged key names (the file, the Redis key). */
  readonly names: RegExp;
}

export function signingKeyPlaceContract<P extends KeyPlace>(name: string, backend: KeyPlaceBackend<P>): void {
  describe(`the signing key kept in ${name}`, () => {
    it('is generated once: taken again (a restart) it is the same key', async () => {
      const place = await backend.place();
      const first = await place.take();
      assert.match(first.kid, /^[A-Za-z0-9_-]{43}$/, 'a base64url SHA-256 thumbprint');
      assert.equal((await place.take()).kid, first.kid);
    });

    it('is one key when many processes take it at once from an empty place', async () => {
      const place = await backend.place();
      const keys = await Promise.all(Array.from({ length: 20 }, () => place.take()));
      assert.equal(new Set(keys.map((k) => k.kid)).size, 1);
    });

    it('refuses a damaged key with a StateError naming where it is and what to do', async () => {
      const place = await backend.place();
      await place.take();
      await backend.damage(place);
      await assert.rejects(place.take(), (e: unknown) => {
        assert.ok(e instanceof StateError, String(e));
        assert.match(e.message, backend.names);
        assert.match(e.message, /damaged: .*(remove|Delete) it/);
        return true;
      });
    });
  });
}
