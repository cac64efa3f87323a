/**
 * The Squads v3, Coral multisig and SPL Governance decoders on real mainnet account bytes
 * (fixtures/mainnet/PROVENANCE.md): each account decodes to its published facts and derives
 * the upgrade authority it holds on mainnet; truncated or foreign bytes are refused, not thrown.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { address } from '@solana/kit';
import { coralSignerAddress, decodeCoralMultisig } from '../../src/solana/decoders/coral-multisig.js';
import {
  decodeGovernance,
  decodeRealm,
  findNativeTreasuryAddress,
  governanceAddressOf,
} from '../../src/solana/decoders/spl-governance.js';
import { decodeSquadsV3Multisig, findSquadsV3AuthorityAddress } from '../../src/solana/decoders/squads-v3.js';
import {
  CORAL_MULTISIG_PROGRAM,
  PYTH_GOVERNANCE_PROGRAM,
  SQUADS_V3_PROGRAM,
} from '../../src/solana/programs.js';
import { expectDecoded, loadAccount } from './fixtures.js';

describe('Coral multisig: Marinade magrsH…', () => {
  const dump = loadAccount('marinade-coral-multisig.json');

  it('6 of 13 owners, nonce 253, owner set 1; its signer is the Marinade upgrade authority 551FBX…', () => {
    assert.equal(dump.owner, CORAL_MULTISIG_PROGRAM);
    const ms = expectDecoded(decodeCoralMultisig(dump.data));
    assert.equal(ms.threshold, 6n);
    assert.equal(ms.owners.length, 13);
    assert.equal(ms.owners[0], '8DzsCSvbvBDYxGB4ytNF698zi6Dyo9dUBVRNjZQFHSUt');
    assert.equal(ms.owners[6], '8HVYKgq2PA4SCDuPZSfHBH1aupTBJYPVru6kq3UfuSX9');
    assert.equal(ms.owners[12], '5ygHFBRddFh7v4PpqquQu2yeRdxWvN1PhyjyzfENdUVh');
    assert.equal(ms.nonce, 253);
    assert.equal(ms.ownerSetSeqno, 1);
    assert.equal(
      coralSignerAddress(address(dump.address), ms.nonce),
      '551FBXSXdhcRDDkdcb3ThDRg84Mwe5Zs6YjJ1EEoyzBp',
    );
  });

  it('the signer depends on the multisig address and the nonce: another address or nonce is another key', () => {
    const other = coralSignerAddress(address('7ZyDFzet6sKgZLN4D89JLfo7chu2n7nYdkFt5RCFk8Sf'), 253);
    assert.notEqual(other, '551FBXSXdhcRDDkdcb3ThDRg84Mwe5Zs6YjJ1EEoyzBp');
    assert.notEqual(
      coralSignerAddress(address(dump.address), 252),
      '551FBXSXdhcRDDkdcb3ThDRg84Mwe5Zs6YjJ1EEoyzBp',
    );
  });

  it('truncated bytes and another account kind are refused', () => {
    assert.equal(decodeCoralMultisig(dump.data.subarray(0, 20)).ok, false);
    const wrong = decodeCoralMultisig(loadAccount('jupiter-squads-v3-multisig.json').data);
    assert.deepEqual(wrong.ok ? null : wrong.reason, 'wrong-kind');
    const cut = decodeCoralMultisig(dump.data.subarray(0, 8 + 4 + 32 * 5));
    assert.equal(cut.ok, false, 'owners vec longer than the bytes');
  });
});

describe('Squads v3: Jupiter 7ZyDFz…', () => {
  const dump = loadAccount('jupiter-squads-v3-multisig.json');

  it('4 of 7 keys; its authority 1 is CvQZZ2… (Jupiter v6 upgrade authority)', async () => {
    assert.equal(dump.owner, SQUADS_V3_PROGRAM);
    const ms = expectDecoded(decodeSquadsV3Multisig(dump.data));
    assert.equal(ms.threshold, 4);
    assert.equal(ms.keys.length, 7);
    assert.ok(ms.keys.includes(address('89FnbsKH8n6FXCghGUijxh3snqx3e6VXJ7q1fQAHWkQQ')));
    assert.equal(ms.authorityIndex, 1);
    assert.equal(ms.allowExternalExecute, false);
    assert.equal(
      await findSquadsV3AuthorityAddress(address(dump.address), 1),
      'CvQZZ23qYDWF2RUpxYJ8y9K4skmuvYEEjH7fK58jtipQ',
    );
  });

  it('a Coral or Squads v4 multisig is not an Ms', () => {
    const wrong = decodeSquadsV3Multisig(loadAccount('marinade-coral-multisig.json').data);
    assert.deepEqual(wrong.ok ? null : wrong.reason, 'wrong-kind');
    assert.equal(decodeSquadsV3Multisig(dump.data.subarray(0, 30)).ok, false);
  });
});

describe('SPL Governance: Pyth staking ProgramGovernance HVx4oW… and realm 4ct8XU…', () => {
  const governanceDump = loadAccount('pyth-staking-program-governance.json');
  const realmDump = loadAccount('pyth-governance-realm.json');

  it('a program governance over pytS9T… with 67% community yes votes, council disabled, 7 days of voting, no hold-up', () => {
    assert.equal(governanceDump.owner, PYTH_GOVERNANCE_PROGRAM);
    const governance = expectDecoded(decodeGovernance(governanceDump.data));
    assert.equal(governance.kind, 'program');
    assert.equal(governance.version, 2);
    assert.equal(governance.realm, realmDump.address);
    assert.equal(governance.governedAccount, 'pytS9TjG1qyAZypk7n8rw8gfW9sUaqqYyMhJQ4E7JCQ');
    assert.deepEqual(governance.config.communityVoteThreshold, { type: 'yes-vote-percentage', percent: 67 });
    assert.deepEqual(governance.config.councilVoteThreshold, { type: 'disabled' });
    assert.equal(governance.config.votingSeconds, 7 * 86_400);
    assert.equal(governance.config.minTransactionHoldUpSeconds, 0);
    assert.equal(governance.config.communityVoteTipping, 'strict');
  });

  it('its own fields derive its address: ["program-governance", realm, program] under the Pyth deployment', async () => {
    const governance = expectDecoded(decodeGovernance(governanceDump.data));
    assert.equal(await governanceAddressOf(governance, PYTH_GOVERNANCE_PROGRAM), governanceDump.address);
    assert.notEqual(await governanceAddressOf(governance, SQUADS_V3_PROGRAM), governanceDump.address);
    assert.notEqual(
      await findNativeTreasuryAddress(address(governanceDump.address), PYTH_GOVERNANCE_PROGRAM),
      governanceDump.address,
    );
  });

  it('the realm: "Pyth Governance", community mint PYTH, no council, no realm authority', () => {
    const realm = expectDecoded(decodeRealm(realmDump.data));
    assert.equal(realm.name, 'Pyth Governance');
    assert.equal(realm.communityMint, 'HZ1JovNiVvGrGNiiYvEozEVgZ58xaU3RKwX8eACQBCt3');
    assert.equal(realm.councilMint, null);
    assert.equal(realm.authority, null);
  });

  it('a V1 governance (zero cool-off where V2 keeps the council rules) applies the community rules to the council', () => {
    const v1 = Uint8Array.from(governanceDump.data);
    v1[0] = 4; // ProgramGovernanceV1
    // V1 config at 69: community YesVote(60), min weight u64, hold-up u32, voting u32, tipping Early,
    // proposal_cool_off_time u32 = 0, min council weight u64.
    const view = new DataView(v1.buffer, v1.byteOffset);
    v1.set([0, 60], 69);
    view.setBigUint64(71, 1n, true);
    view.setUint32(79, 3600, true);
    view.setUint32(83, 259_200, true);
    v1[87] = 1;
    view.setUint32(88, 0, true);
    view.setBigUint64(92, 1n, true);
    const governance = expectDecoded(decodeGovernance(v1));
    assert.equal(governance.version, 1);
    assert.deepEqual(governance.config.councilVoteThreshold, { type: 'yes-vote-percentage', percent: 60 });
    assert.equal(governance.config.councilVoteTipping, 'early');
    assert.equal(governance.config.minTransactionHoldUpSeconds, 3600);
    assert.equal(governance.config.votingSeconds, 259_200);
  });

  it('a realm is not a governance, a governance not a realm; truncated bytes are refused', () => {
    assert.equal(decodeGovernance(realmDump.data).ok, false);
    assert.equal(decodeRealm(governanceDump.data).ok, false);
    assert.equal(decodeGovernance(governanceDump.data.subarray(0, 70)).ok, false);
    assert.equal(decodeRealm(realmDump.data.subarray(0, 60)).ok, false);
  });
});
