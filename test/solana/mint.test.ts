import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { type Address, isSome } from '@solana/kit';
import { getMintDecoder as getLibraryToken2022MintDecoder } from '@solana-program/token-2022';
import bs58 from 'bs58';
import { authorityKind } from '../../src/solana/address-curve.js';
import { decodeMint, transferFeeAt } from '../../src/solana/decoders/mint.js';
import { scanExtensions } from '../../src/solana/decoders/token-2022-tlv.js';
import {
  PUMP_MINT_AUTHORITY,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
  USDC_MINT,
} from '../../src/solana/programs.js';
import { concat, extendedAccount, f64, i64, key, mintBase, tlv, u16, u64, ZERO_KEY } from './bytes.js';
import { expectDecoded, FIXTURES, loadAccount } from './fixtures.js';

function decodeFixtureMint(fileName: string) {
  const account = loadAccount(fileName);
  return { account, mint: expectDecoded(decodeMint(account.data, account.owner)) };
}

const PYUSD_ISSUER = '2apBGMsS6ti9RyF5TwQTDswXBWskiJP2LD4cUEDqYJjk';
const A = 'BJE5MMbqXjVwjAF7oxwPYXnTXDyspzZyt4vwenNw5ruG' as Address;
const B = '7dGbd2QZcCKcTndnHcTL8q7SMVXAkp688NTQYwrRCrar' as Address;

describe('decodeMint on real SPL Token mints', () => {
  it('USDC: live mint and freeze authorities, both single keys', () => {
    const { mint } = decodeFixtureMint('usdc-mint.json');
    assert.equal(mint.program, 'spl-token');
    assert.equal(mint.mintAuthority, 'BJE5MMbqXjVwjAF7oxwPYXnTXDyspzZyt4vwenNw5ruG');
    assert.equal(mint.freezeAuthority, '7dGbd2QZcCKcTndnHcTL8q7SMVXAkp688NTQYwrRCrar');
    assert.equal(mint.supply, 9_308_841_079_006_125n);
    assert.equal(mint.decimals, 6);
    assert.equal(mint.isInitialized, true);
    assert.deepEqual(mint.extensions.present, []);
    assert.equal(authorityKind(mint.mintAuthority!), 'keypair');
    assert.equal(authorityKind(mint.freezeAuthority!), 'keypair');
  });

  it('USDT: one key holds both authorities', () => {
    const { mint } = decodeFixtureMint('usdt-mint.json');
    assert.equal(mint.mintAuthority, 'Q6XprfkF8RQQKoQVG33xT88H7wi8Uk1B1CC7YAs69Gi');
    assert.equal(mint.freezeAuthority, 'Q6XprfkF8RQQKoQVG33xT88H7wi8Uk1B1CC7YAs69Gi');
    assert.equal(mint.supply, 2_039_934_049_041_643n);
    assert.equal(mint.decimals, 6);
  });

  const stakePoolMints: [string, string, bigint][] = [
    ['jitosol-mint.json', '6iQKfEyhr3bZMotVkW6beNZz5CPAkiwvgV2CTje9pVSS', 6_183_351_637_877_350n],
    ['msol-mint.json', '3JLPCS1qM2zRw3Dp6V4hZnYHd4toMNPkNesXdX9tg6KM', 5_389_415_760_698_177n],
    ['stsol-mint.json', '8kRRsKezwXS21beVDcAoTmih1XbyFnEAMXXiGXz6J3Jz', 791_507_846_233_453n],
    ['pwrsol-mint.json', '3SWDH9uUc9Vt45Nb6WbnEKWePGigz6hErDgQES6tdQ8Z', 1_435_226_685_617n],
    ['scnsol-mint.json', 'AzZRvyyMHBm8EHEksWxq4ozFL7JxLMydCDMGhqM6BVck', 129_208_781_089_437n],
    ['lainesol-mint.json', 'AAbVVaokj2VSZCmSU5Uzmxi6mxrG1n6StW9mnaWwN6cv', 17_563_161_925_638n],
  ];
  for (const [file, mintAuthority, supply] of stakePoolMints) {
    it(`${file}: mint authority is the stake pool's PDA, no freeze authority`, () => {
      const { mint } = decodeFixtureMint(file);
      assert.equal(mint.mintAuthority, mintAuthority);
      assert.equal(authorityKind(mint.mintAuthority!), 'pda');
      assert.equal(mint.freezeAuthority, null);
      assert.equal(mint.supply, supply);
      assert.equal(mint.decimals, 9);
    });
  }

  it('legacy pump.fun mint: revoked authorities decode as null although the old key bytes remain', () => {
    const { account, mint } = decodeFixtureMint('pump-legacy-mint-2fWkVf.json');
    // The trap: tag 0 (None), yet bytes 4..36 still hold pump's mint-authority PDA.
    assert.deepEqual([...account.data.subarray(0, 4)], [0, 0, 0, 0]);
    assert.equal(bs58.encode(account.data.subarray(4, 36)), PUMP_MINT_AUTHORITY);
    assert.equal(mint.mintAuthority, null);
    assert.equal(mint.freezeAuthority, null);
    assert.equal(mint.supply, 999_733_653_939_731n);
    assert.equal(mint.decimals, 6);
  });

  it('wrapped SOL: supply 0, 9 decimals, no authorities', () => {
    const { mint } = decodeFixtureMint('wsol-native-mint.json');
    assert.equal(mint.supply, 0n);
    assert.equal(mint.decimals, 9);
    assert.equal(mint.mintAuthority, null);
    assert.equal(mint.freezeAuthority, null);
  });
});

describe('decodeMint on real Token-2022 mints', () => {
  for (const file of ['pyusd-mint-t22-2024-06.json', 'pyusd-mint-t22-sava-snapshot.json']) {
    it(`${file}: PYUSD's permanent delegate, fee config, hook slot and confidential transfers`, () => {
      const { mint } = decodeFixtureMint(file);
      const ext = mint.extensions;
      assert.equal(mint.program, 'token-2022');
      assert.equal(mint.freezeAuthority, PYUSD_ISSUER);
      assert.equal(mint.decimals, 6);
      assert.deepEqual(
        ext.present.map((entry) => [entry.type, entry.name, entry.length]),
        [
          [3, 'MintCloseAuthority', 32],
          [12, 'PermanentDelegate', 32],
          [1, 'TransferFeeConfig', 108],
          [4, 'ConfidentialTransferMint', 65],
          [16, 'ConfidentialTransferFee', 129],
          [14, 'TransferHook', 64],
          [18, 'MetadataPointer', 64],
          [19, 'TokenMetadata', 174],
        ],
      );
      assert.deepEqual(ext.undecodable, []);
      assert.equal(ext.tlvComplete, true);
      assert.equal(ext.permanentDelegate, PYUSD_ISSUER);
      assert.equal(ext.mintCloseAuthority, PYUSD_ISSUER);
      assert.deepEqual(ext.transferFeeConfig, {
        configAuthority: PYUSD_ISSUER,
        withdrawWithheldAuthority: PYUSD_ISSUER,
        withheldAmount: 0n,
        olderTransferFee: { epoch: 605n, maximumFee: 0n, basisPoints: 0 },
        newerTransferFee: { epoch: 605n, maximumFee: 0n, basisPoints: 0 },
      });
      // A hook slot with an authority but no program: no CPI today, one signature away from one.
      assert.deepEqual(ext.transferHook, { authority: PYUSD_ISSUER, programId: null });
      assert.deepEqual(ext.confidentialTransferMint, {
        authority: PYUSD_ISSUER,
        autoApproveNewAccounts: false,
        auditorElgamalPubkey: null,
      });
      assert.deepEqual(ext.confidentialTransferFee, { authority: PYUSD_ISSUER, harvestToMintEnabled: true });
      assert.equal(ext.metadataPointer?.metadataAddress, '2b1kV6DkPAnxd5ixfnxCpjxmKwqjjaYmCZfHsFu24GXo');
      assert.equal(ext.tokenMetadata?.name, 'PayPal USD');
      assert.equal(ext.tokenMetadata?.symbol, 'PYUSD');
      assert.equal(
        ext.tokenMetadata?.uri,
        'https://token-metadata.paxos.com/pyusd_metadata/prod/solana/pyusd_metadata.json',
      );
      assert.equal(ext.tokenMetadata?.mint, '2b1kV6DkPAnxd5ixfnxCpjxmKwqjjaYmCZfHsFu24GXo');
      assert.deepEqual(ext.tokenMetadata?.additionalMetadata, []);
      assert.equal(ext.defaultAccountState, null);
      assert.equal(ext.nonTransferable, false);
      assert.equal(ext.pausable, null);
    });
  }

  it('the two PYUSD snapshots differ where the chain changed: mint authority, supply, metadata authority', () => {
    const older = decodeFixtureMint('pyusd-mint-t22-2024-06.json').mint;
    const newer = decodeFixtureMint('pyusd-mint-t22-sava-snapshot.json').mint;
    assert.equal(older.mintAuthority, '5gUuDFHswKi2QMA1qJHf6FEVhNCrHnyAdfWniMaUUPE4');
    assert.equal(older.supply, 45_000_301_784_205n);
    assert.equal(older.extensions.metadataPointer?.authority, '9nEfZqzTP3dfVWmzQy54TzsZqSQqDFVW4PhXdG9vYCVD');
    assert.equal(
      older.extensions.tokenMetadata?.updateAuthority,
      '9nEfZqzTP3dfVWmzQy54TzsZqSQqDFVW4PhXdG9vYCVD',
    );
    assert.equal(newer.mintAuthority, 'FtrZqgM9begkaLHq3f4hGEUrAK1jjJpkc8hZ1hVk3EDN');
    assert.equal(newer.supply, 126_875_521_509_678n);
    assert.equal(newer.extensions.metadataPointer?.authority, PYUSD_ISSUER);
    assert.equal(newer.extensions.tokenMetadata?.updateAuthority, PYUSD_ISSUER);
  });

  const pumpV2Mints: [string, string, string, string][] = [
    [
      'pump-v2-t22-mint-3xM2iMg4.json',
      '100k',
      '100k',
      'https://ipfs.io/ipfs/bafkreidpxy5i25rv3q3oeohnfmrad3vrbgt5kaklmonrr4e3wylmngt6h4',
    ],
    [
      'pump-v2-t22-mint-Fw5xoxp3.json',
      'START DEVVING WITH 30',
      'DENZA',
      'https://metadata.j7tracker.io/metadata/odLsCEK2YG.json',
    ],
    ['pump-v2-t22-mint-ExXQP6Za.json', 'MarsCoin', 'Marscoin', 'https://m.rapidlaunch.io/m/k5oSUxbbf'],
  ];
  for (const [file, name, symbol, uri] of pumpV2Mints) {
    it(`${file}: pump create_v2 mint with no authorities and immutable metadata`, () => {
      const { account, mint } = decodeFixtureMint(file);
      assert.equal(mint.program, 'token-2022');
      assert.equal(mint.mintAuthority, null);
      assert.equal(mint.freezeAuthority, null);
      assert.equal(mint.supply, 1_000_000_000_000_000n);
      assert.equal(mint.decimals, 6);
      assert.deepEqual(
        mint.extensions.present.map((entry) => entry.name),
        ['MetadataPointer', 'TokenMetadata'],
      );
      assert.deepEqual(mint.extensions.metadataPointer, {
        authority: null,
        metadataAddress: account.address,
      });
      assert.deepEqual(mint.extensions.tokenMetadata, {
        updateAuthority: null,
        mint: account.address,
        name,
        symbol,
        uri,
        additionalMetadata: [],
      });
      assert.equal(mint.extensions.permanentDelegate, null);
      assert.equal(mint.extensions.transferHook, null);
      assert.equal(mint.extensions.transferFeeConfig, null);
    });
  }

  it('the per-entry TLV walk agrees with the package’s whole-account decoder on every real Token-2022 mint', () => {
    const files = [
      'pyusd-mint-t22-2024-06.json',
      'pyusd-mint-t22-sava-snapshot.json',
      ...pumpV2Mints.map(([file]) => file),
    ];
    for (const file of files) {
      const { data } = loadAccount(file);
      const library = getLibraryToken2022MintDecoder().decode(data);
      assert.ok(isSome(library.extensions), file);
      assert.deepEqual(scanExtensions(data).decoded, library.extensions.value, file);
    }
  });
});

describe('decodeMint against risk-golden-decodes.jsonl', () => {
  const golden = readFileSync(new URL('reference/risk-golden-decodes.jsonl', FIXTURES), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const byName = new Map(golden.map((entry) => [entry.name as string, entry]));
  const sameSnapshot: [string, string][] = [
    ['PUMP_LEGACY_2fWkVf_pump', 'pump-legacy-mint-2fWkVf.json'],
    ['PUMP_V2_Fw5xox_pump', 'pump-v2-t22-mint-Fw5xoxp3.json'],
    ['WSOL_So111', 'wsol-native-mint.json'],
  ];
  for (const [name, file] of sameSnapshot) {
    it(`${name} matches the golden authorities, supply, decimals and length`, () => {
      const entry = byName.get(name);
      assert.ok(entry, name);
      const { account, mint } = decodeFixtureMint(file);
      assert.equal(account.data.length, entry.len);
      assert.equal(mint.mintAuthority, entry.mintAuthority);
      assert.equal(mint.freezeAuthority, entry.freezeAuthority);
      assert.equal(mint.supply, BigInt(entry.supply as string));
      assert.equal(mint.decimals, entry.decimals);
      if ('mintAuthStaleBytes' in entry) {
        assert.equal(bs58.encode(account.data.subarray(4, 36)), entry.mintAuthStaleBytes);
      }
      const goldenExtensions = (entry.ext ?? []) as { type: number; len: number }[];
      assert.deepEqual(
        mint.extensions.present.map(({ type, length }) => ({ type, len: length })),
        goldenExtensions.map(({ type, len }) => ({ type, len })),
      );
    });
  }

  it('PYUSD (another snapshot) has the golden extension list and issuer-held powers', () => {
    const entry = byName.get('PYUSD_2b1kV6') as {
      len: number;
      freezeAuthority: string;
      ext: { type: number; len: number; [field: string]: unknown }[];
    };
    const { account, mint } = decodeFixtureMint('pyusd-mint-t22-sava-snapshot.json');
    const ext = mint.extensions;
    assert.equal(account.data.length, entry.len);
    assert.equal(mint.freezeAuthority, entry.freezeAuthority);
    assert.deepEqual(
      ext.present.map(({ type, length }) => ({ type, len: length })),
      entry.ext.map(({ type, len }) => ({ type, len })),
    );
    const golden = new Map(entry.ext.map((item) => [item.type, item]));
    assert.equal(ext.mintCloseAuthority, golden.get(3)?.closeAuthority);
    assert.equal(ext.permanentDelegate, golden.get(12)?.delegate);
    const fee = golden.get(1) as unknown as {
      configAuthority: string;
      withdrawAuthority: string;
      withheld: string;
      older: { epoch: string; max: string; bps: number };
      newer: { epoch: string; max: string; bps: number };
    };
    assert.equal(ext.transferFeeConfig?.configAuthority, fee.configAuthority);
    assert.equal(ext.transferFeeConfig?.withdrawWithheldAuthority, fee.withdrawAuthority);
    assert.equal(ext.transferFeeConfig?.withheldAmount, BigInt(fee.withheld));
    for (const [decodedFee, goldenFee] of [
      [ext.transferFeeConfig?.olderTransferFee, fee.older],
      [ext.transferFeeConfig?.newerTransferFee, fee.newer],
    ] as const) {
      assert.deepEqual(decodedFee, {
        epoch: BigInt(goldenFee.epoch),
        maximumFee: BigInt(goldenFee.max),
        basisPoints: goldenFee.bps,
      });
    }
    assert.equal(ext.confidentialTransferMint?.authority, golden.get(4)?.authority);
    assert.equal(ext.confidentialTransferMint?.autoApproveNewAccounts, golden.get(4)?.autoApprove === 1);
    assert.deepEqual(ext.transferHook, {
      authority: golden.get(14)?.authority,
      programId: golden.get(14)?.program,
    });
    assert.equal(ext.metadataPointer?.authority, golden.get(18)?.authority);
    assert.equal(ext.metadataPointer?.metadataAddress, golden.get(18)?.metadataAddress);
    assert.equal(ext.tokenMetadata?.updateAuthority, golden.get(19)?.updateAuthority);
    const tokenMetadata = ext.tokenMetadata;
    assert.deepEqual(
      [tokenMetadata?.name, tokenMetadata?.symbol, tokenMetadata?.uri],
      golden.get(19)?.nameSymUri,
    );
  });
});

const PUMP_V2 = 'pump-v2-t22-mint-Fw5xoxp3.json';

describe('decodeMint edge cases', () => {
  it('rejects accounts of other programs, token accounts, multisigs and short data', () => {
    const usdc = loadAccount('usdc-mint.json');
    const notToken = decodeMint(usdc.data, USDC_MINT);
    assert.equal(notToken.ok || notToken.reason, 'wrong-owner');
    const tokenAccount = decodeMint(new Uint8Array(165), TOKEN_PROGRAM);
    assert.equal(tokenAccount.ok || tokenAccount.reason, 'wrong-kind');
    const multisig = decodeMint(new Uint8Array(355), TOKEN_2022_PROGRAM);
    assert.equal(multisig.ok || multisig.reason, 'wrong-kind');
    const truncated = decodeMint(usdc.data.subarray(0, 40), TOKEN_PROGRAM);
    assert.equal(truncated.ok || truncated.reason, 'truncated');
    const empty = decodeMint(new Uint8Array(0), TOKEN_PROGRAM);
    assert.equal(empty.ok || empty.reason, 'truncated');
  });

  it('an 82+-byte account under SPL Token that is not 82 bytes is not a mint', () => {
    const { data } = loadAccount(PUMP_V2);
    const result = decodeMint(data, TOKEN_PROGRAM);
    assert.equal(result.ok || result.reason, 'wrong-kind');
  });

  it('a Token-2022 account whose type byte says token account is not a mint', () => {
    const data = extendedAccount(new Uint8Array(165), 2);
    const result = decodeMint(data, TOKEN_2022_PROGRAM);
    assert.equal(result.ok || result.reason, 'wrong-kind');
  });

  it('an authority option tag other than 0 or 1 is malformed, not "no authority"', () => {
    const data = mintBase({ mintAuthority: A, mintTag: 2 });
    const result = decodeMint(data, TOKEN_PROGRAM);
    assert.equal(result.ok || result.reason, 'malformed');
  });

  it('a Token-2022 mint without extensions is 82 bytes and decodes with none', () => {
    const mint = expectDecoded(
      decodeMint(mintBase({ mintAuthority: A, supply: 5n, decimals: 2 }), TOKEN_2022_PROGRAM),
    );
    assert.equal(mint.program, 'token-2022');
    assert.equal(mint.mintAuthority, A);
    assert.equal(mint.supply, 5n);
    assert.deepEqual(mint.extensions.present, []);
  });

  it('keeps an unknown TLV kind by number where the package decoder throws', () => {
    const { data } = loadAccount(PUMP_V2);
    const withUnknown = concat(data, tlv(99, new Uint8Array([1, 2, 3])));
    assert.throws(() => getLibraryToken2022MintDecoder().decode(withUnknown));
    const mint = expectDecoded(decodeMint(withUnknown, TOKEN_2022_PROGRAM));
    assert.deepEqual(
      mint.extensions.present.map(({ type, name, length }) => [type, name, length]),
      [
        [18, 'MetadataPointer', 64],
        [19, 'TokenMetadata', 160],
        [99, null, 3],
      ],
    );
    assert.equal(mint.extensions.tokenMetadata?.symbol, 'DENZA');
    assert.equal(mint.extensions.tlvComplete, true);
  });

  it('a TLV area cut off mid-entry keeps the entries before the cut and says it is incomplete', () => {
    const { data } = loadAccount('pyusd-mint-t22-2024-06.json');
    const cut = data.subarray(0, data.length - 10);
    const mint = expectDecoded(decodeMint(cut, TOKEN_2022_PROGRAM));
    assert.equal(mint.extensions.tlvComplete, false);
    assert.equal(mint.extensions.present.length, 7);
    assert.equal(mint.extensions.permanentDelegate, PYUSD_ISSUER);
    assert.equal(mint.extensions.tokenMetadata, null);
  });

  it('a known kind with a value of the wrong size is listed as undecodable, not fatal', () => {
    const data = extendedAccount(mintBase({}), 1, tlv(12, new Uint8Array(5)));
    const mint = expectDecoded(decodeMint(data, TOKEN_2022_PROGRAM));
    assert.deepEqual(mint.extensions.undecodable, [12]);
    assert.equal(mint.extensions.permanentDelegate, null);
  });

  it('decodes the risky extensions of a hand-built mint', () => {
    const transferFeeConfig = concat(
      key(A),
      ZERO_KEY,
      u64(7n),
      concat(u64(600n), u64(1_000n), u16(100)),
      concat(u64(700n), u64(50_000n), u16(500)),
    );
    const interestBearing = concat(key(B), i64(1_700_000_000n), u16(10), i64(1_700_000_100n), u16(2_623));
    const scaledUi = concat(key(A), f64(1.5), i64(1_800_000_000n), f64(2));
    const data = extendedAccount(
      mintBase({ staleMintKey: A, supply: 1n, decimals: 9 }),
      1,
      tlv(1, transferFeeConfig),
      tlv(3, new Uint8Array(32)),
      tlv(6, new Uint8Array([2])),
      tlv(9, new Uint8Array(0)),
      tlv(10, interestBearing),
      tlv(12, key(B)),
      tlv(14, concat(key(A), key(B))),
      tlv(25, scaledUi),
      tlv(26, concat(key(B), [1])),
    );
    const mint = expectDecoded(decodeMint(data, TOKEN_2022_PROGRAM));
    const ext = mint.extensions;
    assert.equal(mint.mintAuthority, null);
    assert.deepEqual(
      ext.present.map((entry) => entry.type),
      [1, 3, 6, 9, 10, 12, 14, 25, 26],
    );
    assert.deepEqual(ext.transferFeeConfig, {
      configAuthority: A,
      withdrawWithheldAuthority: null,
      withheldAmount: 7n,
      olderTransferFee: { epoch: 600n, maximumFee: 1_000n, basisPoints: 100 },
      newerTransferFee: { epoch: 700n, maximumFee: 50_000n, basisPoints: 500 },
    });
    // A scheduled increase: 1 % until epoch 700, 5 % from then on.
    assert.equal(transferFeeAt(ext.transferFeeConfig!, 699n).basisPoints, 100);
    assert.equal(transferFeeAt(ext.transferFeeConfig!, 700n).basisPoints, 500);
    assert.equal(ext.mintCloseAuthority, null, 'an all-zero close authority is no close authority');
    assert.equal(ext.defaultAccountState, 'frozen');
    assert.equal(ext.nonTransferable, true);
    assert.deepEqual(ext.interestBearing, {
      rateAuthority: B,
      initializationTimestamp: 1_700_000_000n,
      preUpdateAverageRate: 10,
      lastUpdateTimestamp: 1_700_000_100n,
      currentRate: 2_623,
    });
    assert.equal(ext.permanentDelegate, B);
    assert.deepEqual(ext.transferHook, { authority: A, programId: B });
    assert.deepEqual(ext.scaledUiAmount, {
      authority: A,
      multiplier: 1.5,
      newMultiplierEffectiveTimestamp: 1_800_000_000n,
      newMultiplier: 2,
    });
    assert.deepEqual(ext.pausable, { authority: B, paused: true });
  });

  it('decodes group pointer, group, member pointer, member and permissioned burn', () => {
    const data = extendedAccount(
      mintBase({}),
      1,
      tlv(20, concat(key(A), key(B))),
      tlv(21, concat(key(A), key(B), u64(3n), u64(10n))),
      tlv(22, concat(ZERO_KEY, key(A))),
      tlv(23, concat(key(A), key(B), u64(2n))),
      tlv(28, key(B)),
    );
    const ext = expectDecoded(decodeMint(data, TOKEN_2022_PROGRAM)).extensions;
    assert.deepEqual(ext.groupPointer, { authority: A, groupAddress: B });
    assert.deepEqual(ext.group, { updateAuthority: A, mint: B, size: 3n, maxSize: 10n });
    assert.deepEqual(ext.groupMemberPointer, { authority: null, memberAddress: A });
    assert.deepEqual(ext.groupMember, { mint: A, group: B, memberNumber: 2n });
    assert.deepEqual(ext.permissionedBurn, { authority: B });
  });
});
