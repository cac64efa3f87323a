/**
 * The behaviour every place a generated signing key is kept must have (memory, STATE_DIR,
 * Redis), run against each by its own test file: the first key made there is every taker's, and,
 * where the place outlives the process, after a restart too, and a damaged key is refused with a
 * StateError that says what to do. The restart and damage cases are marked skipped, by name,
 * for a place that ends with its process.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SigningKey } from '../../src/signing/key.js';
import { StateError } from '../../src/state/error.js';

export interface KeyPlace {
  /** The place's key, as a starting process takes it. */
  take(): Promise<SigningKey>;
}

/** What only a place that outlives its process has. */
export interface DurableKeyPlace<P extends KeyPlace> {
  /** The place as a restarted process finds it. */
  restart(place: P): Promise<P>;
  /** Fault injection: overwrites the place's key with text that is no key. */
  damage(place: P): Promise<unknown>;
  /** What a refusal of a damaged key names (the file, the Redis key). */
  readonly names: RegExp;
}

export interface KeyPlaceBackend<P extends KeyPlace> {
  /** A new, empty place. */
  place(): Promise<P>;
  /** Absent for a place that ends with its process (memory). */
  readonly durable?: DurableKeyPlace<P>;
}

export function signingKeyPlaceContract<P extends KeyPlace>(name: string, backend: KeyPlaceBackend<P>): void {
  const { durable } = backend;
  const durableOnly =
    durable === undefined ? { skip: 'durable places only: this one ends with its process' } : {};
  const restarted = durable as DurableKeyPlace<P>;
  describe(`the signing key kept in ${name}`, () => {
    it('is made once: taken again it is the same key', async () => {
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

    it('is the same key after a restart', durableOnly, async () => {
      const place = await backend.place();
      const first = await place.take();
      assert.equal((await (await restarted.restart(place)).take()).kid, first.kid);
    });

    it('refuses a damaged key with a StateError naming where it is and what to do', durableOnly, async () => {
      const place = await backend.place();
      await place.take();
      await restarted.damage(place);
      await assert.rejects(place.take(), (e: unknown) => {
        assert.ok(e instanceof StateError, String(e));
        assert.match(e.message, restarted.names);
        assert.match(e.message, /damaged: .*(remove|Delete) it/);
        return true;
      });
    });
  });
}
