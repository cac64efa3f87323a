/** The synchronous PDA search gives kit's answer, bump included, and refuses what kit refuses. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Address, getAddressDecoder, getProgramDerivedAddress } from '@solana/kit';
import { findAssociatedTokenPda } from '@solana-program/token';
import { findExtraAccountMetaListPda } from '@solana-program/token-2022';
import fc from 'fast-check';
import {
  createProgramAddress,
  findAssociatedTokenAddress,
  findExtraAccountMetaListAddress,
  findProgramAddressSync,
  findProgramDerivedAddress,
} from '../../src/solana/program-address.js';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM, USDC_MINT } from '../../src/solana/programs.js';

const addressArb = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => getAddressDecoder().decode(b));
const seedArb = fc.oneof(fc.uint8Array({ maxLength: 32 }), fc.string({ maxLength: 20 }));

describe('findProgramDerivedAddress', () => {
  it('equals kit’s getProgramDerivedAddress (address and bump) for random seeds and programs', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(seedArb, { maxLength: 5 }), addressArb, async (seeds, programAddress) => {
        const kit = await getProgramDerivedAddress({ programAddress, seeds });
        assert.deepEqual(await findProgramDerivedAddress({ programAddress, seeds }), kit);
        assert.deepEqual(findProgramAddressSync(seeds, programAddress), kit);
      }),
      { numRuns: 300 },
    );
  });

  it('a search found before answers again from memory, for its own program and seeds only', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(seedArb, { maxLength: 3 }),
        addressArb,
        addressArb,
        async (seeds, one, other) => {
          for (const programAddress of [one, other, one, other]) {
            const kit = await getProgramDerivedAddress({ programAddress, seeds });
            assert.deepEqual(findProgramAddressSync(seeds, programAddress), kit);
            // The same bytes in other seeds (one seed of them all) hash alike: the same address.
            const joined = Buffer.concat(seeds.map((s) => (typeof s === 'string' ? Buffer.from(s) : s)));
            if (joined.length <= 32) assert.deepEqual(findProgramAddressSync([joined], programAddress), kit);
          }
        },
      ),
      { numRuns: 50 },
    );
  });

  it('equals the token program package’s associated token account, under both token programs', async () => {
    await fc.assert(
      fc.asyncProperty(
        addressArb,
        addressArb,
        fc.constantFrom(TOKEN_PROGRAM, TOKEN_2022_PROGRAM),
        async (owner, mint, tokenProgram) => {
          assert.deepEqual(
            await findAssociatedTokenAddress({ owner, mint, tokenProgram }),
            await findAssociatedTokenPda({ owner, mint, tokenProgram }),
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  it('equals the token-2022 package’s transfer hook validation account', async () => {
    await fc.assert(
      fc.asyncProperty(addressArb, addressArb, async (mint, hookProgram) => {
        assert.deepEqual(
          await findExtraAccountMetaListAddress({ mint, hookProgram }),
          await findExtraAccountMetaListPda({ mint }, { programAddress: hookProgram }),
        );
      }),
      { numRuns: 100 },
    );
  });

  it('the canonical bump’s address is what createProgramAddress gives for that bump', () => {
    const [pda, bump] = findProgramAddressSync(['vault', new Uint8Array([1, 2, 3])], TOKEN_PROGRAM);
    const text = new TextEncoder().encode('vault');
    assert.equal(
      createProgramAddress([text, new Uint8Array([1, 2, 3]), new Uint8Array([bump])], TOKEN_PROGRAM),
      pda,
    );
  });

  it('refuses more than 16 seeds and a seed over 32 bytes, as the runtime does', async () => {
    const program = USDC_MINT as Address;
    await assert.rejects(
      findProgramDerivedAddress({ programAddress: program, seeds: Array.from({ length: 17 }, () => 'a') }),
      /18 seeds, the bump included: a PDA takes at most 16/,
    );
    // The bump is the sixteenth: fifteen seeds are the most a search takes, as kit counts them.
    const sixteen = Array.from({ length: 16 }, () => 'a');
    await assert.rejects(
      findProgramDerivedAddress({ programAddress: program, seeds: sixteen }),
      /17 seeds, the bump included/,
    );
    await assert.rejects(getProgramDerivedAddress({ programAddress: program, seeds: sixteen }));
    const fifteen = sixteen.slice(1);
    assert.deepEqual(
      await findProgramDerivedAddress({ programAddress: program, seeds: fifteen }),
      await getProgramDerivedAddress({ programAddress: program, seeds: fifteen }),
    );
    assert.throws(() => createProgramAddress([new Uint8Array(33)], program), /seed 0 has 33 bytes/);
    await assert.rejects(
      findProgramDerivedAddress({ programAddress: program, seeds: [new Uint8Array(33)] }),
      /seed 0 has 33 bytes/,
    );
    await assert.rejects(getProgramDerivedAddress({ programAddress: program, seeds: [new Uint8Array(33)] }));
  });
});
