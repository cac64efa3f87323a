/**
 * Program-derived addresses, computed synchronously with node:crypto's SHA-256:
 *   - `createProgramAddress`: one exact bump. Kit exports only the search from 255 down, but the
 *     Coral multisig stores its signer's nonce, and a signer derived with a non-canonical nonce
 *     must still be recognised.
 *   - `findProgramDerivedAddress`: the canonical search, the same answer as kit's
 *     `getProgramDerivedAddress` (a property test holds the two together). Kit hashes through
 *     WebCrypto, one thread-pool hop per bump tried, and throws an error for every bump that lands
 *     on the curve; a scan derives a hundred addresses, so that cost is on its critical path. Done
 *     here in one synchronous step, a round's reads also leave in one tick, so a round trip counter
 *     sees them as the one round they are.
 */
import { createHash } from 'node:crypto';
import {
  type Address,
  getAddressDecoder,
  type ProgramDerivedAddress,
  type ProgramDerivedAddressBump,
  type ReadonlyUint8Array,
} from '@solana/kit';
import { addressBytes } from './address-bytes.js';
import { bytesAreOnCurve } from './address-curve.js';
import { ASSOCIATED_TOKEN_PROGRAM } from './programs.js';

const PDA_MARKER = new TextEncoder().encode('ProgramDerivedAddress');
const MAX_SEEDS = 16;
const MAX_SEED_BYTES = 32;

const addressDecoder = getAddressDecoder();
const textEncoder = new TextEncoder();

/** A seed as kit takes it: bytes, or text encoded as UTF-8. */
export type Seed = ReadonlyUint8Array | string;

/** Program address bytes, kept (address-bytes.ts): a few programs recur. */
const bytesOfProgram = (program: Address) => addressBytes(program) as Uint8Array;

/** The seeds as bytes, refused as the runtime refuses them (`maxSeeds` counts the bump when there is one). */
function seedBytes(seeds: readonly Seed[], maxSeeds = MAX_SEEDS): Uint8Array[] {
  if (seeds.length > maxSeeds) {
    const counted = seeds.length + MAX_SEEDS - maxSeeds;
    throw new Error(`${counted} seeds, the bump included: a PDA takes at most ${MAX_SEEDS}`);
  }
  return seeds.map((seed, i) => {
    const bytes = typeof seed === 'string' ? textEncoder.encode(seed) : (seed as Uint8Array);
    if (bytes.length > MAX_SEED_BYTES) {
      throw new Error(`seed ${i} has ${bytes.length} bytes: a PDA seed has at most ${MAX_SEED_BYTES}`);
    }
    return bytes;
  });
}

function offCurveHash(seeds: readonly Uint8Array[], program: Uint8Array): Address | null {
  const hash = createHash('sha256');
  for (const seed of seeds) hash.update(seed);
  hash.update(program);
  hash.update(PDA_MARKER);
  const digest = hash.digest();
  // On the bytes (address-curve.ts): a candidate on the curve is never turned into base58 text.
  return bytesAreOnCurve(digest) ? null : addressDecoder.decode(digest);
}

/** The address for these exact seeds (bump included), or null when it falls on the curve. */
export function createProgramAddress(seeds: readonly Uint8Array[], programAddress: Address): Address | null {
  return offCurveHash(seedBytes(seeds), bytesOfProgram(programAddress));
}

/**
 * Canonical PDAs found, by program and seed bytes: a search costs a curve check (~0.1 ms of
 * big-integer math) per bump tried, a scan derives about seventy (liquidity discovery's pool
 * addresses, most of them the same for every mint of a kind), and the answer never changes.
 * Bounded: cleared whole when full.
 */
const PDA_MEMO_SIZE = 20_000;
const foundPdas = new Map<string, ProgramDerivedAddress>();

/** The memo's key: the program, then the seeds' bytes (the hash reads them end to end, as here). */
function pdaKey(seeds: readonly Uint8Array[], program: Address): string {
  return `${program}:${Buffer.concat(seeds).toString('latin1')}`;
}

/** The canonical PDA: the highest bump whose address is off the curve. */
export function findProgramAddressSync(
  seeds: readonly Seed[],
  programAddress: Address,
): ProgramDerivedAddress {
  const bytes = seedBytes(seeds, MAX_SEEDS - 1);
  const key = pdaKey(bytes, programAddress);
  let found = foundPdas.get(key);
  if (found === undefined) {
    found = searchBump(bytes, programAddress);
    if (foundPdas.size >= PDA_MEMO_SIZE) foundPdas.clear();
    foundPdas.set(key, found);
  }
  return found;
}

/** From 255 down to 1, as kit and the runtime's find_program_address search. */
function searchBump(bytes: readonly Uint8Array[], programAddress: Address): ProgramDerivedAddress {
  const program = bytesOfProgram(programAddress);
  const withBump = [...bytes, new Uint8Array(1)];
  const bump = withBump.at(-1)!;
  for (let b = 255; b > 0; b--) {
    bump[0] = b;
    const found = offCurveHash(withBump, program);
    if (found !== null)
      return Object.freeze([found, b as ProgramDerivedAddressBump]) as ProgramDerivedAddress;
  }
  throw new Error(`no bump puts these seeds off the curve for program ${programAddress}`);
}

/** `findProgramAddressSync` with kit's `getProgramDerivedAddress` signature, for drop-in use. */
export async function findProgramDerivedAddress(input: {
  readonly programAddress: Address;
  readonly seeds: readonly Seed[];
}): Promise<ProgramDerivedAddress> {
  return findProgramAddressSync(input.seeds, input.programAddress);
}

/** An owner's associated token account for a mint (the ATA program's PDA). */
export async function findAssociatedTokenAddress(input: {
  readonly owner: Address;
  readonly mint: Address;
  readonly tokenProgram: Address;
}): Promise<ProgramDerivedAddress> {
  const { owner, mint, tokenProgram } = input;
  return findProgramAddressSync(
    [addressBytes(owner), bytesOfProgram(tokenProgram), addressBytes(mint)],
    ASSOCIATED_TOKEN_PROGRAM,
  );
}

/** A transfer hook's validation account for a mint (spl-transfer-hook-interface: ["extra-account-metas", mint]). */
export async function findExtraAccountMetaListAddress(input: {
  readonly mint: Address;
  readonly hookProgram: Address;
}): Promise<ProgramDerivedAddress> {
  return findProgramAddressSync(['extra-account-metas', addressBytes(input.mint)], input.hookProgram);
}
