/**
 * On mainnet a Squads-governed program's upgrade authority is the multisig's vault PDA, an
 * account that holds only lamports. The scanner finds the multisig in the ProgramData history
 * (a Squads instruction names it), checks that its vault PDA is the authority, and reads it:
 * a third round trip on this path only.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  AccountRole,
  type Address,
  createDefaultRpcTransport,
  createSolanaRpcFromTransport,
  generateKeyPairSigner,
  getProgramDerivedAddress,
  type KeyPairSigner,
} from '@solana/kit';
import { createSandboxChain, type SandboxChain } from '../../../src/sandbox/chain/chain.js';
import { type SandboxRpc, startSandboxRpc } from '../../../src/sandbox/rpc/server.js';
import {
  encodeSquadsMultisig,
  installStandInProgram,
} from '../../../src/sandbox/scenarios/builders/layouts.js';
import { programElf } from '../../../src/sandbox/scenarios/programs.js';
import { submitFailing } from '../../../src/sandbox/wallets.js';
import { scanProgram } from '../../../src/scans/program/index.js';
import { findSquadsVaultAddress } from '../../../src/solana/decoders/squads.js';
import { SQUADS_V4_PROGRAM } from '../../../src/solana/programs.js';
import { countingTransport } from '../../helpers/rpc-transports.js';

describe('a program upgraded through a Squads v4 vault', () => {
  let chain: SandboxChain;
  let server: SandboxRpc;
  let payer: KeyPairSigner;
  let elf: Uint8Array;
  let multisig: Address;

  const scan = async (id: Address) => {
    const counter = countingTransport(createDefaultRpcTransport({ url: server.url }));
    const { result } = await scanProgram(id, {
      rpc: createSolanaRpcFromTransport(counter.transport),
      now: Date.now,
    });
    return { result, roundTrips: counter.roundTrips(), evidence: result.evidence as any };
  };

  /** A program whose upgrade authority is `authority`, with a Squads instruction naming `named` in its history. */
  const governedBy = async (authority: Address, named: Address | null) => {
    const programId = (await generateKeyPairSigner()).address;
    const { programData } = await installStandInProgram(chain, programId, elf, authority);
    if (named !== null) {
      // As vault_transaction_execute does, the instruction names the multisig first. The stand-in
      // Squads body rejects it (the multisig cannot sign), so it lands failed: the history still
      // shows which multisig it was, and the PDA check makes that evidence unforgeable.
      await submitFailing(chain, payer, [
        {
          programAddress: SQUADS_V4_PROGRAM,
          accounts: [
            { address: named, role: AccountRole.WRITABLE },
            { address: programData, role: AccountRole.WRITABLE },
          ],
          data: new Uint8Array([194, 8, 161, 87, 153, 164, 25, 171]),
        },
      ]);
    }
    return programId;
  };

  before(async () => {
    chain = await createSandboxChain({ autoAdvance: false });
    server = await startSandboxRpc({ chain, host: '127.0.0.1', port: 0 });
    elf = programElf({ chain });
    payer = await generateKeyPairSigner();
    chain.setAccount({ address: payer.address, lamports: 10_000_000_000n });
    await installStandInProgram(chain, SQUADS_V4_PROGRAM, elf, null);
    const createKey = (await generateKeyPairSigner()).address;
    const [address, bump] = await getProgramDerivedAddress({
      programAddress: SQUADS_V4_PROGRAM,
      seeds: ['multisig', 'multisig', new Uint8Array(32).fill(3)],
    });
    multisig = address;
    const members = await Promise.all([0, 1, 2, 3].map(async () => (await generateKeyPairSigner()).address));
    const data = encodeSquadsMultisig({
      createKey,
      configAuthority: null,
      threshold: 3,
      timeLockSeconds: 86_400,
      transactionIndex: 9n,
      staleTransactionIndex: 0n,
      rentCollector: null,
      bump,
      members: members.map((key) => ({ key, permissions: 7 })),
    });
    chain.setAccount({
      address: multisig,
      lamports: chain.minimumBalanceForRentExemption(data.length),
      data,
      owner: SQUADS_V4_PROGRAM,
    });
  });
  after(async () => {
    chain.stop();
    await server.close();
  });

  it('the vault is traced to its 3-of-4 multisig: UPGRADE_AUTHORITY_MULTISIG, not an unknown PDA', async () => {
    const vault = await findSquadsVaultAddress(multisig, 0);
    chain.setAccount({ address: vault, lamports: 5_000_000n });
    const { result, roundTrips, evidence } = await scan(await governedBy(vault, multisig));
    assert.ok(result.flags.includes('UPGRADE_AUTHORITY_MULTISIG'), String(result.flags));
    assert.ok(!result.flags.includes('UPGRADE_AUTHORITY_UNKNOWN_PDA'));
    const flag = evidence.flags.UPGRADE_AUTHORITY_MULTISIG;
    assert.equal(flag.multisig, multisig);
    assert.equal(flag.vault, vault);
    assert.equal(flag.vault_index, 0);
    assert.equal(flag.threshold, 3);
    assert.equal(flag.voters, 4);
    assert.equal(roundTrips, 3, 'the third round trip reads the multisig');
  });

  it('a vault of another index (1) is found too', async () => {
    const vault = await findSquadsVaultAddress(multisig, 1);
    const { result, evidence } = await scan(await governedBy(vault, multisig));
    assert.ok(result.flags.includes('UPGRADE_AUTHORITY_MULTISIG'), String(result.flags));
    assert.equal(evidence.flags.UPGRADE_AUTHORITY_MULTISIG.vault_index, 1);
  });

  it('a multisig named in the history whose vault is not the authority proves nothing: unknown PDA, two round trips', async () => {
    const [stranger] = await getProgramDerivedAddress({
      programAddress: SQUADS_V4_PROGRAM,
      seeds: ['elsewhere'],
    });
    const { result, roundTrips } = await scan(await governedBy(stranger, multisig));
    assert.ok(result.flags.includes('UPGRADE_AUTHORITY_UNKNOWN_PDA'), String(result.flags));
    assert.ok(!result.flags.includes('UPGRADE_AUTHORITY_MULTISIG'));
    assert.equal(roundTrips, 2);
  });

  it('a vault with no Squads instruction in the history stays an unknown PDA, in two round trips', async () => {
    const vault = await findSquadsVaultAddress(multisig, 2);
    const { result, roundTrips } = await scan(await governedBy(vault, null));
    assert.ok(result.flags.includes('UPGRADE_AUTHORITY_UNKNOWN_PDA'), String(result.flags));
    assert.equal(roundTrips, 2);
  });
});
