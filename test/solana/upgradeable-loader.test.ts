import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Address } from '@solana/kit';
import { authorityKind, isOnCurveAddress } from '../../src/solana/address-curve.js';
import {
  decodeLoaderV4Program,
  decodeUpgradeableLoaderState,
  findProgramDataAddress,
  PROGRAM_DATA_HEADER_SIZE,
} from '../../src/solana/decoders/upgradeable-loader.js';
import {
  BPF_UPGRADEABLE_LOADER,
  JUPITER_V6_PROGRAM,
  PUMP_PROGRAM,
  PUMPSWAP_PROGRAM,
  RAYDIUM_AMM_V4_PROGRAM,
  SQUADS_V4_PROGRAM,
} from '../../src/solana/programs.js';
import { concat, key, u32, u64, ZERO_KEY } from './bytes.js';
import { expectDecoded, loadAccount } from './fixtures.js';

interface ProgramFixture {
  name: string;
  programData: string;
  slot: bigint;
  authority: string;
  kind: 'keypair' | 'pda';
}

// From fixtures/mainnet/PROVENANCE.md.
const PROGRAMS: ProgramFixture[] = [
  {
    name: 'marinade',
    programData: '4PQH9YmfuKrVyZaibkLYpJZPv2FPaybhq2GAuBcWMSBf',
    slot: 229_946_024n,
    authority: '551FBXSXdhcRDDkdcb3ThDRg84Mwe5Zs6YjJ1EEoyzBp',
    kind: 'pda',
  },
  {
    name: 'lido',
    programData: 'CHZNLhDXKrsXBmmv947RFciquwBsn2NdABmhpxoX3wgZ',
    slot: 165_468_732n,
    authority: 'GQ3QPrB1RHPRr4Reen772WrMZkHcFM4DL5q44x1BBTFm',
    kind: 'pda',
  },
  {
    name: 'spl-stake-pool',
    programData: 'EmiU8AQkB2sswTxVB6aCmsAJftoowZGGDXuytm6X65R3',
    slot: 238_419_616n,
    authority: 'dPpFfahSWhm5M2RB3nVaHsXfnh9ooz5bWtR3WeUguDH',
    kind: 'pda',
  },
  {
    name: 'stakedex',
    programData: '7EEWx5mzzsYjU1GK2Y5eP3ngQGaRit8wJhmkkoQMnouA',
    slot: 257_414_016n,
    authority: 'HanXbAh9AngpUuzxJVH3FoQ9mEu3qPHQ62u6JtuoR7VS',
    kind: 'keypair',
  },
  {
    name: 'sanctum-spl',
    programData: 'Cn5fegqLh8Fmvffisr4Wk3LmuaUgMMzTFfEuidpZFsvV',
    slot: 241_131_019n,
    authority: '47SND7bGKvNXrqfP1bjsLCbwTgZhFBzAgmZ42QSkRScz',
    kind: 'pda',
  },
  {
    name: 'sanctum-spl-multi',
    programData: 'HxBTMuB7cFBPVWVJjTi9iBF8MPd7mfY1QnrrWfLAySFd',
    slot: 257_400_593n,
    authority: '3etKXcW2fzEJR5YXoSKSmP6UZ633g9uiFv5yuqFUf66k',
    kind: 'keypair',
  },
  {
    name: 'token-metadata',
    programData: 'PwDiXFxQsGra4sFFTT8r1QWRMd4vfumiWC1jfWNfdYT',
    slot: 237_241_971n,
    authority: '6Vwz7AXYG6V1TUPP3KWYZncMEvUv6iPSFbfHDCLRcjtz',
    kind: 'pda',
  },
];

const AUTHORITY = 'HanXbAh9AngpUuzxJVH3FoQ9mEu3qPHQ62u6JtuoR7VS' as Address;

describe('decodeUpgradeableLoaderState on real programs', () => {
  for (const fixture of PROGRAMS) {
    it(`${fixture.name}: program → ProgramData PDA, deploy slot, upgrade authority (${fixture.kind})`, async () => {
      const program = loadAccount(`${fixture.name}-program.json`);
      assert.equal(program.owner, BPF_UPGRADEABLE_LOADER);
      assert.equal(program.executable, true);
      const programState = expectDecoded(decodeUpgradeableLoaderState(program.data));
      assert.deepEqual(programState, { kind: 'program', programDataAddress: fixture.programData });
      assert.equal(await findProgramDataAddress(program.address), fixture.programData);

      const programData = loadAccount(`${fixture.name}-programdata.json`);
      assert.equal(programData.address, fixture.programData);
      const state = expectDecoded(decodeUpgradeableLoaderState(programData.data));
      assert.deepEqual(state, {
        kind: 'programData',
        slot: fixture.slot,
        upgradeAuthority: fixture.authority,
        executableLength: programData.data.length - PROGRAM_DATA_HEADER_SIZE,
        startsWithElf: true,
      });
      assert.equal(authorityKind(fixture.authority as Address), fixture.kind);

      // The 45-byte header alone (an RPC dataSlice) decodes to the same facts.
      const header = expectDecoded(
        decodeUpgradeableLoaderState(programData.data.subarray(0, PROGRAM_DATA_HEADER_SIZE)),
      );
      assert.deepEqual(header, { ...state, executableLength: 0, startsWithElf: false });
    });
  }

  it('derives the ProgramData addresses listed in risk-research §2.1', async () => {
    assert.equal(await findProgramDataAddress(PUMP_PROGRAM), 'B5MvUwXdiW1NMM6QFFD3ssPKBujD4zMohncbM73Z2BQu');
    assert.equal(
      await findProgramDataAddress(PUMPSWAP_PROGRAM),
      '6naEzKeUuFh1Jeeu51NXQgr5qkXgXtc9WKNct4xynVJc',
    );
    assert.equal(
      await findProgramDataAddress(JUPITER_V6_PROGRAM),
      '4Ec7ZxZS6Sbdg5UGSLHbAnM7GQHp2eFd4KYWRexAipQT',
    );
    assert.equal(
      await findProgramDataAddress(SQUADS_V4_PROGRAM),
      'Fy3YMJCvwbAXUgUM5b91ucUVA3jYzwWLHL3MwBqKsh8n',
    );
    assert.equal(
      await findProgramDataAddress(RAYDIUM_AMM_V4_PROGRAM),
      'A7ZG7ByDi8DpzT9Ab7CiXhvgYTJQmaDPJkMDoPitaCQV',
    );
  });
});

describe('decodeUpgradeableLoaderState edge cases', () => {
  it('uninitialized and buffer accounts', () => {
    assert.deepEqual(expectDecoded(decodeUpgradeableLoaderState(u32(0))), { kind: 'uninitialized' });
    const buffer = concat(u32(1), [1], key(AUTHORITY), [0x7f, 0x45]);
    assert.deepEqual(expectDecoded(decodeUpgradeableLoaderState(buffer)), {
      kind: 'buffer',
      authority: AUTHORITY,
    });
    const orphan = concat(u32(1), [0], ZERO_KEY);
    assert.deepEqual(expectDecoded(decodeUpgradeableLoaderState(orphan)), {
      kind: 'buffer',
      authority: null,
    });
  });

  it('an immutable program: authority tag 0 wins over leftover key bytes', () => {
    const data = concat(u32(3), u64(300_000_000n), [0], key(AUTHORITY));
    const state = expectDecoded(decodeUpgradeableLoaderState(data));
    assert.equal(state.kind === 'programData' && state.upgradeAuthority, null);
    assert.equal(state.kind === 'programData' && state.slot, 300_000_000n);
  });

  it('typed failures for short data, bad option tags and unknown variants', () => {
    const short = decodeUpgradeableLoaderState(new Uint8Array([3, 0]));
    assert.equal(short.ok || short.reason, 'truncated');
    const shortHeader = decodeUpgradeableLoaderState(concat(u32(3), u64(1n), [1]));
    assert.equal(shortHeader.ok || shortHeader.reason, 'truncated');
    const shortProgram = decodeUpgradeableLoaderState(concat(u32(2), new Uint8Array(20)));
    assert.equal(shortProgram.ok || shortProgram.reason, 'truncated');
    const badTag = decodeUpgradeableLoaderState(concat(u32(3), u64(1n), [2], key(AUTHORITY)));
    assert.equal(badTag.ok || badTag.reason, 'malformed');
    const unknown = decodeUpgradeableLoaderState(concat(u32(9), new Uint8Array(40)));
    assert.equal(unknown.ok || unknown.reason, 'wrong-kind');
  });
});

describe('decodeLoaderV4Program', () => {
  it('reads slot, authority and status from the 48-byte header', () => {
    const deployed = concat(u64(123n), key(AUTHORITY), u64(1n), [0x7f, 0x45, 0x4c, 0x46]);
    assert.deepEqual(expectDecoded(decodeLoaderV4Program(deployed)), {
      slot: 123n,
      authorityOrNextVersion: AUTHORITY,
      status: 'deployed',
      executableLength: 4,
    });
    const finalized = concat(u64(5n), ZERO_KEY, u64(2n));
    assert.equal(expectDecoded(decodeLoaderV4Program(finalized)).status, 'finalized');
    const retracted = concat(u64(5n), key(AUTHORITY), u64(0n));
    assert.equal(expectDecoded(decodeLoaderV4Program(retracted)).status, 'retracted');
  });

  it('typed failures for short data and unknown status', () => {
    const short = decodeLoaderV4Program(new Uint8Array(47));
    assert.equal(short.ok || short.reason, 'truncated');
    const status = decodeLoaderV4Program(concat(u64(5n), key(AUTHORITY), u64(3n)));
    assert.equal(status.ok || status.reason, 'malformed');
  });
});

describe('isOnCurveAddress', () => {
  it('tells keypairs from PDAs', () => {
    assert.equal(isOnCurveAddress(AUTHORITY), true);
    assert.equal(isOnCurveAddress('551FBXSXdhcRDDkdcb3ThDRg84Mwe5Zs6YjJ1EEoyzBp' as Address), false);
    assert.equal(isOnCurveAddress('4PQH9YmfuKrVyZaibkLYpJZPv2FPaybhq2GAuBcWMSBf' as Address), false);
  });
});
