/**
 * Each layout the sandbox writes with a decoder's codec comes back through that decoder as what was
 * written: a builder and its decoder cannot drift apart, field by field.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Address, address, generateKeyPairSigner, getAddressEncoder } from '@solana/kit';
import { createSandboxChain, type SandboxChain } from '../../../src/sandbox/chain/chain.js';
import {
  encodeCoralMultisig,
  encodeSquadsMultisig,
  encodeSquadsV3Multisig,
  installStandInProgram,
} from '../../../src/sandbox/scenarios/builders/layouts.js';
import {
  encodeBinArray,
  encodeClmmTickArray,
  encodePriceUpdateV2,
  encodeWhirlpoolTickArray,
} from '../../../src/sandbox/scenarios/builders/trade-layouts.js';
import { encodeWhirlpoolPosition } from '../../../src/sandbox/scenarios/builders/whirlpool-positions.js';
import { programElf } from '../../../src/sandbox/scenarios/programs.js';
import { decodeCoralMultisig } from '../../../src/solana/decoders/coral-multisig.js';
import {
  decodeMetadata,
  METADATA_DATA_CODEC,
  METADATA_V1_KEY,
} from '../../../src/solana/decoders/metaplex-metadata.js';
import { decodeBinArray } from '../../../src/solana/decoders/meteora-dlmm-bin-array.js';
import { decodeWhirlpoolPosition } from '../../../src/solana/decoders/orca-whirlpool-position.js';
import {
  decodePriceUpdateV2,
  PRICE_UPDATE_V2_SIZE,
  PYTH_RECEIVER_PROGRAM,
  PYTH_SOL_USD_FEED_ID,
} from '../../../src/solana/decoders/pyth-price-update.js';
import { decodeSquadsMultisig } from '../../../src/solana/decoders/squads.js';
import { decodeSquadsV3Multisig } from '../../../src/solana/decoders/squads-v3.js';
import {
  CLMM_TICK_ARRAY_SIZE,
  decodeClmmTickArray,
  decodeWhirlpoolTickArray,
  WHIRLPOOL_TICK_ARRAY_SIZE,
} from '../../../src/solana/decoders/tick-arrays.js';
import { decodeUpgradeableLoaderState } from '../../../src/solana/decoders/upgradeable-loader.js';
import { expectDecoded } from '../fixtures.js';

const A = address('7UVimffxr9ow1uXYxsr4LHAcV58mLzhmwaeKvJ1pjLiE');
const B = address('whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc');
const BIG = 2n ** 100n + 7n;
const address_ = (key: Address) => getAddressEncoder().encode(key);

describe('sandbox builders read back through the decoders', () => {
  it('Pyth PriceUpdateV2: 134 bytes, fully verified, every field as written', () => {
    const fields = { price: -12_345_678n, conf: 9_876n, exponent: -8, publishTime: 1_767_225_600n };
    const bytes = encodePriceUpdateV2({
      ...fields,
      writeAuthority: A,
      feedIdHex: PYTH_SOL_USD_FEED_ID,
      postedSlot: 400_000_123n,
    });
    assert.equal(bytes.length, PRICE_UPDATE_V2_SIZE);
    assert.deepEqual(expectDecoded(decodePriceUpdateV2(bytes, PYTH_RECEIVER_PROGRAM)), {
      ...fields,
      feedId: PYTH_SOL_USD_FEED_ID,
      fullyVerified: true,
      postedSlot: 400_000_123n,
    });
  });

  it('Whirlpool tick array: the initialized ticks, their net liquidity signed, and the pool', () => {
    const ticks = [
      { index: -5632, liquidityNet: BIG, liquidityGross: BIG },
      { index: -64, liquidityNet: -BIG, liquidityGross: BIG },
    ];
    const bytes = encodeWhirlpoolTickArray(B, -5632, 64, ticks);
    assert.equal(bytes.length, WHIRLPOOL_TICK_ARRAY_SIZE);
    assert.deepEqual(expectDecoded(decodeWhirlpoolTickArray(bytes, 64)), {
      pool: B,
      startTickIndex: -5632,
      ticks: ticks.map(({ index, liquidityNet }) => ({ index, liquidityNet })),
    });
  });

  it('Raydium CLMM tick array: the ticks with liquidity, in their slots, and the pool', () => {
    const ticks = [
      { index: 600, liquidityNet: BIG, liquidityGross: BIG },
      { index: 1140, liquidityNet: -3n, liquidityGross: 3n },
    ];
    const bytes = encodeClmmTickArray(A, 600, 10, ticks);
    assert.equal(bytes.length, CLMM_TICK_ARRAY_SIZE);
    assert.deepEqual(expectDecoded(decodeClmmTickArray(bytes, 10)), {
      pool: A,
      startTickIndex: 600,
      ticks: ticks.map(({ index, liquidityNet }) => ({ index, liquidityNet })),
    });
  });

  it('Meteora DLMM bin array: each bin of the array at its id, empty bins zero', () => {
    const bins = [
      { id: -70, amountX: 5n, amountY: 0n },
      { id: -1, amountX: 0n, amountY: 2n ** 63n },
    ];
    const decoded = expectDecoded(decodeBinArray(encodeBinArray(B, -1, bins)));
    assert.equal(decoded.index, -1n);
    assert.equal(decoded.pair, B);
    assert.equal(decoded.bins.length, 70);
    assert.deepEqual(decoded.bins[0], bins[0]);
    assert.deepEqual(decoded.bins[69], bins[1]);
    assert.deepEqual(decoded.bins[30], { id: -40, amountX: 0n, amountY: 0n });
  });

  it('Whirlpool position: pool, NFT mint, a liquidity past 64 bits and both ticks', () => {
    const position = {
      whirlpool: A,
      positionMint: B,
      liquidity: BIG,
      tickLower: -443_584,
      tickUpper: 443_584,
    };
    assert.deepEqual(expectDecoded(decodeWhirlpoolPosition(encodeWhirlpoolPosition(position))), position);
  });
});

describe('multisig builders read back through the decoders', () => {
  it('Squads v4 Multisig: members with their permissions, a rent collector, no config authority', () => {
    const multisig = {
      createKey: A,
      configAuthority: null,
      threshold: 2,
      timeLockSeconds: 3_600,
      transactionIndex: 9n,
      staleTransactionIndex: 4n,
      rentCollector: B,
      bump: 254,
      members: [
        { key: A, permissions: 7 },
        { key: B, permissions: 2 },
      ],
    };
    const { members, voterCount, ...decoded } = expectDecoded(
      decodeSquadsMultisig(encodeSquadsMultisig(multisig)),
    );
    const { members: _written, ...rest } = multisig;
    assert.deepEqual(decoded, rest);
    assert.deepEqual(members, [
      { key: A, canInitiate: true, canVote: true, canExecute: true },
      { key: B, canInitiate: false, canVote: true, canExecute: false },
    ]);
    assert.equal(voterCount, 2);
  });

  it('Squads v4 Multisig: a config authority and no rent collector', () => {
    const decoded = expectDecoded(
      decodeSquadsMultisig(
        encodeSquadsMultisig({
          createKey: A,
          configAuthority: B,
          threshold: 1,
          timeLockSeconds: 0,
          transactionIndex: 0n,
          staleTransactionIndex: 0n,
          rentCollector: null,
          bump: 1,
          members: [],
        }),
      ),
    );
    assert.equal(decoded.configAuthority, B);
    assert.equal(decoded.rentCollector, null);
    assert.deepEqual(decoded.members, []);
  });

  it('Squads v3 Ms: threshold, authority index, create key and keys', () => {
    const ms = { threshold: 3, authorityIndex: 2, createKey: A, keys: [A, B] };
    assert.deepEqual(expectDecoded(decodeSquadsV3Multisig(encodeSquadsV3Multisig(ms))), {
      ...ms,
      transactionIndex: 0,
      msChangeIndex: 0,
      bump: 255,
      allowExternalExecute: false,
    });
  });

  it('Coral Multisig: owners, threshold, nonce and owner set number', () => {
    const ms = { owners: [A, B], threshold: 2n, nonce: 253, ownerSetSeqno: 4 };
    assert.deepEqual(expectDecoded(decodeCoralMultisig(encodeCoralMultisig(ms))), ms);
  });
});

describe('a stand-in program reads back through the loader decoder', () => {
  let chain: SandboxChain;
  let elf: Uint8Array;
  before(async () => {
    chain = await createSandboxChain({ autoAdvance: false });
    elf = programElf({ chain });
  });
  after(() => chain.stop());

  const stateOf = (account: Address) =>
    expectDecoded(decodeUpgradeableLoaderState(new Uint8Array(chain.getAccount(account)!.data())));

  for (const authority of [B, null]) {
    it(`program → its ProgramData: deploy slot, ${authority ? 'the upgrade authority' : 'immutable'}, the ELF after the header`, async () => {
      const programId = (await generateKeyPairSigner()).address;
      const installed = await installStandInProgram(chain, programId, elf, authority);
      assert.deepEqual(stateOf(programId), { kind: 'program', programDataAddress: installed.programData });
      assert.deepEqual(stateOf(installed.programData), {
        kind: 'programData',
        slot: installed.deploySlot,
        upgradeAuthority: authority,
        executableLength: elf.length,
        startsWithElf: true,
      });
    });
  }
});

describe('Token Metadata Data, as CreateMetadataAccountV3 sends it, reads back from an account', () => {
  it('name, symbol, uri, seller fee and creators; the fields around it as the program lays them', () => {
    const data = {
      name: 'Sandbox Coin',
      symbol: 'SBX',
      uri: 'https://example.invalid/sbx.json',
      sellerFeeBasisPoints: 500,
      creators: [{ address: A, verified: true, share: 100 }],
    };
    const account = Uint8Array.from([
      METADATA_V1_KEY,
      ...address_(B),
      ...address_(A),
      ...METADATA_DATA_CODEC.encode(data),
      0, // primary_sale_happened
      1, // is_mutable
      1,
      254, // edition_nonce Some(254)
      1,
      2, // token_standard Some(Fungible)
    ]);
    assert.deepEqual(expectDecoded(decodeMetadata(account)), {
      key: METADATA_V1_KEY,
      updateAuthority: B,
      mint: A,
      ...data,
      primarySaleHappened: false,
      isMutable: true,
      editionNonce: 254,
      tokenStandard: 'Fungible',
    });
  });
});
