/**
 * `risk-scan sandbox` as a framework plugin meets it, for one describe block: its own start-up
 * (seeded subjects, the real scanners, two facilitators) on free ports, the payer's secret key
 * it writes to disk (a framework's own wallet is made from it), the manifest's subjects, USDC
 * balances read from its chain, and the catalog's price of each scan. Started in `before`,
 * closed in `after`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { type Address, address, createSolanaRpc } from '@solana/kit';
import {
  atomicPrice,
  listedPrice,
  orderPriceUsd,
  PAID_ENDPOINTS,
  SCAN_ENDPOINTS,
  type ScanId,
} from '../../src/catalog.js';
import type {
  ScenarioManifest,
  ScenarioSubject,
  SimulationScenario,
} from '../../src/sandbox/scenarios/index.js';
import type { RunningSandbox } from '../../src/sandbox/start.js';
import { usdcAccountOf } from '../../src/sandbox/usdc.js';
import { startCustomerSandbox } from './customer-sandbox.js';

export type ScanKind = 'token' | 'pumpfun' | 'wallet' | 'tx' | 'program' | 'simulate';

export interface PluginSandbox {
  readonly sandbox: RunningSandbox;
  readonly manifest: ScenarioManifest;
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
  /** A seeded subject of each kind a scan takes; for `simulate`, a base64 transaction. */
  subjectOf(kind: ScanKind): string;
  /** The seeded token whose scan raises the most flags. */
  riskiestToken(): Extract<ScenarioSubject, { kind: 'token' }>;
  simulations(): SimulationScenario[];
  usdcBalance(owner: string): Promise<bigint>;
  /** The catalog's price of one scan, in USDC atomic units. */
  priceOf(kind: ScanKind): bigint;
}

/** A scan's catalog price in USDC atomic units. */
export const priceUnits = (id: ScanId): bigint =>
  BigInt(atomicPrice(orderPriceUsd(SCAN_ENDPOINTS.find((e) => e.id === id)!)));

const onChain = (s: ScenarioSubject) => !s.name.startsWith('mainnet:');
const keyOf = (s: ScenarioSubject) => ('signature' in s ? s.signature : s.address);

export function usePluginSandbox(): PluginSandbox {
  const dir = mkdtempSync(join(tmpdir(), 'plugin-sandbox-'));
  const state = {} as { sandbox: RunningSandbox; manifest: ScenarioManifest; secret: Uint8Array };
  before(async () => {
    state.sandbox = await startCustomerSandbox(dir, 'ideal');
    state.manifest = JSON.parse(readFileSync(state.sandbox.files.manifest, 'utf8'));
    state.secret = new Uint8Array(JSON.parse(readFileSync(state.sandbox.files.payer, 'utf8')));
  });
  after(async () => {
    await state.sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const subjects = () => state.manifest.subjects.filter(onChain);
  const firstOf = (kind: ScenarioSubject['kind']) => {
    const found = subjects().find((s) => s.kind === kind);
    assert.ok(found, `the manifest lists a ${kind}`);
    return keyOf(found);
  };
  return {
    get sandbox() {
      return state.sandbox;
    },
    get manifest() {
      return state.manifest;
    },
    get apiUrl() {
      return state.sandbox.api.url;
    },
    get rpcUrl() {
      return state.sandbox.rpc.url;
    },
    get payTo() {
      return state.sandbox.payTo;
    },
    get payer() {
      return state.sandbox.payer;
    },
    get payerSecretKey() {
      return state.secret;
    },
    subject(name) {
      const found = state.manifest.subjects.find((s) => s.name === name);
      assert.ok(found, `the manifest lists ${name}`);
      return keyOf(found);
    },
    firstOf,
    subjectOf: (kind) => (kind === 'simulate' ? state.manifest.simulations[0]!.transaction : firstOf(kind)),
    riskiestToken() {
      const tokens = subjects().filter(
        (s): s is Extract<ScenarioSubject, { kind: 'token' }> => s.kind === 'token',
      );
      return tokens.reduce((a, b) => (b.expect.flags.length > a.expect.flags.length ? b : a));
    },
    simulations: () => state.manifest.simulations,
    async usdcBalance(owner) {
      const account = await createSolanaRpc(state.sandbox.rpc.url)
        .getTokenAccountBalance(await usdcAccountOf(address(owner)))
        .send()
        .catch(() => null);
      return account === null ? 0n : BigInt(account.value.amount);
    },
    priceOf(kind) {
      const endpoint = PAID_ENDPOINTS.find((e) => e.id === kind)!;
      return BigInt(atomicPrice(listedPrice(endpoint).usd));
    },
  };
}
