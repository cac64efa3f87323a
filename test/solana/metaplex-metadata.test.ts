import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Address } from '@solana/kit';
import { decodeMetadata, findMetadataAddress } from '../../src/solana/decoders/metaplex-metadata.js';
import { TOKEN_METADATA_PROGRAM, USDC_MINT } from '../../src/solana/programs.js';
import { concat, key, u16, u32 } from './bytes.js';
import { expectDecoded, loadAccount } from './fixtures.js';

const AUTHORITY = 'AzZRvyyMHBm8EHEksWxq4ozFL7JxLMydCDMGhqM6BVck' as Address;
const MINT = '5oVNBeEEQvYi1cX3ir8Dx5n1P7pdxydbGF2X4TxVusJm' as Address;
const CREATOR = '7dGbd2QZcCKcTndnHcTL8q7SMVXAkp688NTQYwrRCrar' as Address;

/** A Borsh string padded with NULs to `padTo` bytes, the way old metadata accounts store it. */
function paddedString(text: string, padTo: number): Uint8Array {
  const bytes = new Uint8Array(padTo);
  bytes.set(new TextEncoder().encode(text));
  return concat(u32(padTo), bytes);
}

function metadataBytes(tail: readonly number[]): Uint8Array {
  return concat(
    [4],
    key(AUTHORITY),
    key(MINT),
    paddedString('Coin', 32),
    paddedString('CN', 10),
    paddedString('https://example.org/c.json', 200),
    u16(500),
    [1],
    u32(2),
    key(CREATOR),
    [1, 60],
    key(AUTHORITY),
    [0, 40],
    [1, 0],
    tail,
  );
}

describe('decodeMetadata', () => {
  it('decodes the real scnSOL metadata account and its PDA', async () => {
    const account = loadAccount('scnsol-metadata.json');
    assert.equal(account.owner, TOKEN_METADATA_PROGRAM);
    const metadata = expectDecoded(decodeMetadata(account.data));
    assert.deepEqual(metadata, {
      key: 4,
      updateAuthority: AUTHORITY,
      mint: MINT,
      name: 'Socean staked SOL',
      symbol: 'scnSOL',
      uri: '',
      sellerFeeBasisPoints: 0,
      creators: null,
      primarySaleHappened: false,
      isMutable: true,
      editionNonce: 254,
      tokenStandard: null,
    });
    assert.equal(await findMetadataAddress(metadata.mint), account.address);
  });

  it('derives USDC’s metadata PDA', async () => {
    assert.equal(await findMetadataAddress(USDC_MINT), '5x38Kp4hvdomTCnCrAny4UtMUt5rQBdB6px2K1Ui45Wq');
  });

  it('trims NUL padding and reads creators, edition nonce and token standard', () => {
    const metadata = expectDecoded(decodeMetadata(metadataBytes([1, 255, 1, 2])));
    assert.equal(metadata.name, 'Coin');
    assert.equal(metadata.symbol, 'CN');
    assert.equal(metadata.uri, 'https://example.org/c.json');
    assert.equal(metadata.sellerFeeBasisPoints, 500);
    assert.deepEqual(metadata.creators, [
      { address: CREATOR, verified: true, share: 60 },
      { address: AUTHORITY, verified: false, share: 40 },
    ]);
    assert.equal(metadata.primarySaleHappened, true);
    assert.equal(metadata.isMutable, false);
    assert.equal(metadata.editionNonce, 255);
    assert.equal(metadata.tokenStandard, 'Fungible');
  });

  it('stops at is_mutable when the tail is not canonical', () => {
    const metadata = expectDecoded(decodeMetadata(metadataBytes([9, 9, 9])));
    assert.equal(metadata.isMutable, false);
    assert.equal(metadata.editionNonce, null);
    assert.equal(metadata.tokenStandard, null);
    const unknownStandard = expectDecoded(decodeMetadata(metadataBytes([0, 1, 42])));
    assert.equal(unknownStandard.tokenStandard, null);
  });

  it('rejects other Token Metadata accounts and cut-off data', () => {
    const edition = decodeMetadata(concat([6], new Uint8Array(281)));
    assert.equal(edition.ok || edition.reason, 'wrong-kind');
    const short = decodeMetadata(new Uint8Array([4, 1, 2]));
    assert.equal(short.ok || short.reason, 'truncated');
    const empty = decodeMetadata(new Uint8Array(0));
    assert.equal(empty.ok || empty.reason, 'truncated');
    const cut = decodeMetadata(metadataBytes([]).subarray(0, 150));
    assert.equal(cut.ok, false);
  });
});
