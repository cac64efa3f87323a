/**
 * `risk-scan sandbox` as a framework plugin meets it, for one describe block: its own start-up
 * (seeded subjects, the real scanners, two facilitators) on free ports, the payer's secret key
 * it writes to disk (for the framework's own wallet), the manifest's subjects by name, and USDC
 * balances read from its chain. Started in `before`, closed in `after`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { type Address, createSolanaRpc } from '@solana/kit';
import { atomicPrice, SCAN_ENDPOINTS, type ScanId } from '../../src/catalog.js';
import type {
  ScenarioManifest,
  ScenarioSubject,
  SimulationScenario,
} from '../../src/sandbox/scenarios/index.js';
import type { RunningSandbox } from '../../src/sandbox/start.js';
import { usdcAccountOf } from '../../src/sandbox/usdc.js';
import { startCustomerSandbox } from './customer-sandbox.js';

export interface PluginSandbox {
  readonly apiUrl: string;
  readonly rpcUrl: string;
  readonly payTo: Address;
  readonly payer: Address;
  /** The payer's 64-byte secret key, as its keypair file holds it. */
  readonly payerSecretKey: Uint8Array;
  /** The seeded subject of that name: its address, or its signature for a transaction. */
  subject(name: string): string;
  /** The first seeded subject of a kind (`token`, `pumpfun`, `wallet`, `tx`, `program`). */
  firstOf(kind: ScenarioSubject['kind']): string;
  simulations(): SimulationScenario[];
  usdcBalance(owner: Address): Promise<bigint>;
}

/** A scan's catalog price in USDC atomic units. */
export const priceUnits = (id: ScanId): bigint =>
  BigInt(atomicPrice(SCAN_ENDPOINTS.find((e) => e.id === id)!.priceUsd!));

export function usePluginSandbox(): PluginSandbox {
  const dir = mkdtempSync(join(tmpdir(), 'plugin-sandbox-'));
  let sandbox: RunningSandbox;
  let manifest: ScenarioManifest;
  let secret: Uint8Array;
  before(async () => {
    sandbox = await startCustomerSandbox(dir, 'ideal');
    manifest = JSON.parse(readFileSync(sandbox.files.manifest, 'utf8'));
    secret = new Uint8Array(JSON.parse(readFileSync(sandbox.files.payer, 'utf8')));
  });
  after(async () => {
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const keyOf = (s: ScenarioSubject) => ('signature' in s ? s.signature : s.address);
  return {
    get apiUrl() {
      return sandbox.api.url;
    },
    get rpcUrl() {
      return sandbox.rpc.url;
    },
    get payTo() {
      return sandbox.payTo;
    },
    get payer() {
      return sandbox.payer;
    },
    get payerSecretKey() {
      return secret;
    },
    subject(name) {
      const found = manifest.subjects.find((s) => s.name === name);
      assert.ok(found, `the manifest lists ${name}`);
      return keyOf(found);
    },
    firstOf(kind) {
      const found = manifest.subjects.find((s) => s.kind === kind && !s.name.startsWith('mainnet:'));
      assert.ok(found, `the manifest lists a ${kind}`);
      return keyOf(found);
    },
    simulations: () => manifest.simulations,
    async usdcBalance(owner) {
      const account = await createSolanaRpc(sandbox.rpc.url)
        .getTokenAccountBalance(await usdcAccountOf(owner))
        .send();
      return BigInt(account.value.amount);
    },
  };
}
