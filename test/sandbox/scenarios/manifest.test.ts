import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Address, Signature } from '@solana/kit';
import { type MainnetSubject, seededChain } from '../../../src/sandbox/scenarios/index.js';
import { MAINNET_FLAG_EXPECTATIONS } from '../../../src/sandbox/scenarios/mainnet-flags.js';
import { FLAG_CATALOGS } from '../../../src/scans/registry.js';
import { decodeMint } from '../../../src/solana/decoders/mint.js';
import { decodeUpgradeableLoaderState } from '../../../src/solana/decoders/upgradeable-loader.js';
import { PYUSD_MINT, USDC_MINT } from '../../../src/solana/programs.js';
import { accountBytes, type SeededSandbox, startSeededSandbox } from './seeded-sandbox.js';

let sandbox: SeededSandbox;

describe('seeded scenarios: manifest and snapshot', () => {
  before(async () => {
    sandbox = await startSeededSandbox();
  });
  after(() => sandbox.close());

  it('is plain JSON with unique names, every kind present', () => {
    const { manifest } = sandbox;
    assert.deepEqual(JSON.parse(JSON.stringify(manifest)), manifest);
    const names = manifest.subjects.map((s) => s.name);
    assert.equal(new Set(names).size, names.length);
    for (const kind of ['token', 'pumpfun', 'wallet', 'tx', 'program']) {
      assert.ok(
        manifest.subjects.some((s) => s.kind === kind),
        kind,
      );
    }
  });

  it('every address exists on the chain and every signature has its transaction', async () => {
    for (const item of sandbox.manifest.subjects) {
      if ('signature' in item) {
        const tx = await sandbox.rpc
          .getTransaction(item.signature as Signature, {
            maxSupportedTransactionVersion: 0,
            encoding: 'json',
          })
          .send();
        assert.ok(tx, item.name);
        assert.ok(Number(tx.blockTime) <= Date.now() / 1000 + 5, `${item.name} is not in the future`);
      } else {
        const { value } = await sandbox.rpc
          .getAccountInfo(item.address as Address, { encoding: 'base64' })
          .send();
        assert.ok(value, item.name);
        if (item.kind === 'wallet') assert.equal(value.owner, '11111111111111111111111111111111', item.name);
      }
    }
  });

  it('mainnet dumps are loaded and described by what their bytes decode to; USDC keeps the sandbox authority', async () => {
    const mainnet = sandbox.manifest.subjects.filter((s) => s.name.startsWith('mainnet:'));
    assert.ok(mainnet.length >= 15);
    const usdc = await accountBytes(sandbox, USDC_MINT);
    const decodedUsdc = decodeMint(usdc.data, usdc.owner);
    assert.ok(decodedUsdc.ok);
    assert.equal(decodedUsdc.value.mintAuthority, sandbox.manifest.usdc.mintAuthority);
    assert.ok(!mainnet.some((s) => 'address' in s && s.address === USDC_MINT));
    const pyusd = await accountBytes(sandbox, PYUSD_MINT);
    const decoded = decodeMint(pyusd.data, pyusd.owner);
    assert.ok(decoded.ok && decoded.value.extensions.permanentDelegate);
    const programs = mainnet.filter((s): s is MainnetSubject => s.kind === 'program');
    assert.equal(programs.length, 7);
    for (const program of programs) {
      const account = await accountBytes(sandbox, program.address);
      assert.equal(account.executable, true);
      const state = decodeUpgradeableLoaderState(account.data);
      assert.ok(state.ok && state.value.kind === 'program');
      assert.equal(state.value.programDataAddress, program.expect.facts.programData);
    }
  });

  it('every subject says which flags its scan must and must not raise, in codes of that scan’s catalog', () => {
    for (const { name, kind, expect } of sandbox.manifest.subjects) {
      const { flags, notFlags, onlyFlags } = expect;
      assert.ok(Array.isArray(flags) && Array.isArray(notFlags), `${name}: expect.flags and expect.notFlags`);
      assert.ok(onlyFlags === undefined || typeof onlyFlags === 'boolean', `${name}: expect.onlyFlags`);
      const catalog = FLAG_CATALOGS[kind];
      for (const code of [...flags, ...notFlags]) {
        assert.ok(Object.hasOwn(catalog, code), `${name}: ${code} is not a flag of the ${kind} scan`);
      }
      assert.equal(new Set(flags).size, flags.length, `${name}: expect.flags repeats a code`);
      assert.ok(!flags.some((code) => notFlags.includes(code)), `${name}: a code both required and refused`);
    }
  });

  it('every mainnet expectation names a loaded dump of its kind', () => {
    for (const [name, expected] of Object.entries(MAINNET_FLAG_EXPECTATIONS)) {
      const loaded = sandbox.manifest.subjects.find((s) => s.name === name);
      assert.equal(loaded?.kind, expected.kind, name);
    }
  });

  it('restores from the cached snapshot, independently of other copies', async () => {
    const copy = await seededChain();
    try {
      console.log(
        `seeding ${copy.timings.seedMs.toFixed(0)} ms, restore ${copy.timings.restoreMs.toFixed(0)} ms`,
      );
      const wallet = sandbox.manifest.subjects.find((s) => s.name === 'wallet:old-active');
      assert.ok(wallet && 'address' in wallet);
      copy.chain.setAccount({ address: wallet.address, lamports: 1n });
      const { value } = await sandbox.rpc.getBalance(wallet.address as Address).send();
      assert.notEqual(value, 1n, 'a change to one restored copy does not leak into another');
      assert.equal(copy.chain.slot, sandbox.chain.slot);
    } finally {
      copy.chain.stop();
    }
  });
});
