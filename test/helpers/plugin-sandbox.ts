/**
 * `risk-scan sandbox` for the framework plugins' tests: its seeded subjects (one of each kind a
 * scan takes, and a simulation), its funded payer's secret key (as a framework's wallet is made
 * from it), USDC balances, and the catalog's price of each scan. Started in `before`, closed in `after`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { type Address, address, createSolanaRpc } from '@solana/kit';
import { atomicPrice, listedPrice, PAID_ENDPOINTS } from '../../src/catalog.js';
import type { ScenarioManifest, ScenarioSubject } from '../../src/sandbox/scenarios/manifest.js';
import type { RunningSandbox } from '../../src/sandbox/start.js';
import { usdcAccountOf } from '../../src/sandbox/usdc.js';
import { startCustomerSandbox } from './customer-sandbox.js';

export type ScanKind = 'token' | 'pumpfun' | 'wallet' | 'tx' | 'program' | 'simulate';

export interface PluginSandbox {
  readonly sandbox: RunningSandbox;
  readonly manifest: ScenarioManifest;
  /** The payer's 64-byte secret key (payer.json). */
  readonly payerSecretKey: Uint8Array;
  /** A seeded subject of each kind: an address, a signature, or (simulate) a base64 transaction. */
  subjectOf(kind: ScanKind): string;
  /** The seeded token whose scan raises the most flags. */
  riskiestToken(): Extract<ScenarioSubject, { kind: 'token' }>;
  usdcBalance(owner: string): Promise<bigint>;
  /** The catalog's price of one scan, in USDC atomic units. */
  priceOf(kind: ScanKind): bigint;
}

const onChain = (s: ScenarioSubject) => !s.name.startsWith('mainnet:');

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
  return {
    get sandbox() {
      return state.sandbox;
    },
    get manifest() {
      return state.manifest;
    },
    get payerSecretKey() {
      return state.secret;
    },
    subjectOf(kind) {
      if (kind === 'simulate') return state.manifest.simulations[0]!.transaction;
      const found = subjects().find((s) => s.kind === kind);
      if (found === undefined) throw new Error(`the manifest has no ${kind} subject`);
      return 'signature' in found ? found.signature : found.address;
    },
    riskiestToken() {
      const tokens = subjects().filter(
        (s): s is Extract<ScenarioSubject, { kind: 'token' }> => s.kind === 'token',
      );
      return tokens.reduce((a, b) => (b.expect.flags.length > a.expect.flags.length ? b : a));
    },
    async usdcBalance(owner) {
      const rpc = createSolanaRpc(state.sandbox.rpc.url);
      const account = await rpc
        .getTokenAccountBalance(await usdcAccountOf(address(owner) as Address))
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
