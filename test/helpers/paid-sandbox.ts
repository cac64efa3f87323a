/**
 * Everything a paid call needs, on one machine: the sandbox chain and its RPC, USDC at its
 * mainnet address, a funded payer, payTo's USDC account, two local facilitators (each with
 * its own fee payer) and the service itself, configured against them.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Address,
  createDefaultRpcTransport,
  createSolanaRpc,
  createSolanaRpcFromTransport,
  generateKeyPairSigner,
  type KeyPairSigner,
} from '@solana/kit';
import { parseConfig } from '../../src/config.js';
import { createSandboxChain, type SandboxChain } from '../../src/sandbox/chain/chain.js';
import { type SandboxFacilitator, startSandboxFacilitator } from '../../src/sandbox/facilitator/server.js';
import type { RpcProfileName } from '../../src/sandbox/rpc/profiles.js';
import { type SandboxRpc, startSandboxRpc } from '../../src/sandbox/rpc/server.js';
import type { SimulationScenario } from '../../src/sandbox/scenarios/manifest.js';
import { buildSimulations } from '../../src/sandbox/scenarios/simulations.js';
import { fundUsdc, installUsdcMint, usdcAccountOf } from '../../src/sandbox/usdc.js';
import type { RunningServer } from '../../src/server/listen.js';
import { createLogger } from '../../src/server/logger.js';
import { createService, OFFERS_ONLY, type Service } from '../../src/service/index.js';
import { delayedTransport } from './rpc-transports.js';
import type { TestServiceOptions } from './service.js';

const SOL = 1_000_000_000n;
/** 100 USDC in atomic units. */
export const PAYER_USDC = 100_000_000n;

export interface PaidSandbox {
  readonly chain: SandboxChain;
  readonly rpcServer: SandboxRpc;
  readonly rpc: ReturnType<typeof createSolanaRpc>;
  readonly payer: KeyPairSigner;
  readonly payTo: Address;
  readonly usdcAuthority: KeyPairSigner;
  readonly facilitators: readonly SandboxFacilitator[];
  readonly service: Service;
  readonly server: RunningServer;
  readonly url: string;
  usdcBalance(owner: Address): Promise<bigint>;
  /** The test payer's and payTo's USDC balances, to compare before and after a call. */
  balances(): Promise<{ payer: bigint; payTo: bigint }>;
  /** A new payer holding `usdc` atomic units (and no SOL: the fee payer pays fees). */
  newPayer(usdc: bigint): Promise<KeyPairSigner>;
  /**
   * Another instance of the service on the same chain and facilitators, with the first's options
   * (its mode included) but for those `options` replaces. By default with state of its own (as a
   * second machine sharing nothing); `env` may name the first's `STATE_DIR` (the same machine
   * after a restart) or a `REDIS_URL`. Closed with the sandbox.
   */
  startInstance(
    options?: Partial<TestServiceOptions>,
    env?: Record<string, string>,
  ): Promise<{ readonly url: string; readonly metricsUrl?: string | undefined }>;
  /** The first instance's STATE_DIR. */
  readonly stateDir: string;
  close(): Promise<void>;
}

/**
 * `options` say the service's mode as production callers do (`selling(scanners, …)`); without
 * them the service makes offers only (a bench that runs its own servers on the sandbox).
 */
export async function startPaidSandbox(
  env: Record<string, string> = {},
  options: TestServiceOptions = { mode: OFFERS_ONLY },
  /** Latency added to every RPC call the service makes (scans, lookups), for benchmarks. */
  rpcLatencyMs = 0,
): Promise<PaidSandbox> {
  const chain = await createSandboxChain({ autoAdvance: false });
  const rpcServer = await startSandboxRpc({ chain, host: '127.0.0.1', port: 0 });
  const rpc = createSolanaRpc(rpcServer.url);
  const [usdcAuthority, payer, payToSigner, feePayerA, feePayerB] = await Promise.all(
    Array.from({ length: 5 }, () => generateKeyPairSigner()),
  );
  for (const s of [usdcAuthority, feePayerA, feePayerB])
    chain.setAccount({ address: s!.address, lamports: 10n * SOL });
  installUsdcMint(chain, usdcAuthority!.address);
  const payTo = payToSigner!.address;
  await fundUsdc(chain, usdcAuthority!, [
    { owner: payer!.address, amount: PAYER_USDC },
    { owner: payTo, amount: 0n },
  ]);
  const facilitators = await Promise.all(
    [feePayerA!, feePayerB!].map((feePayer) => startSandboxFacilitator({ rpcUrl: rpcServer.url, feePayer })),
  );
  const stateDirs: string[] = [];
  const freshStateDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'paid-sandbox-state-'));
    stateDirs.push(dir);
    return dir;
  };
  const stateDir = env.STATE_DIR ?? (await freshStateDir());
  const configWith = (more: Record<string, string>) =>
    parseConfig({
      RISK_SCAN_MODE: 'sandbox',
      PAY_TO: payTo,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      SOLANA_RPC_URL: rpcServer.url,
      FACILITATOR_URLS: facilitators.map((f) => f.url).join(','),
      FACILITATOR_TIMEOUT_MS: '2000',
      SETTLE_TIMEOUT_MS: '5000',
      CONFIRM_WINDOW_MS: '1000',
      STATE_DIR: stateDir,
      ...env,
      ...more,
    });
  const serviceRpc =
    rpcLatencyMs > 0
      ? {
          rpc: createSolanaRpcFromTransport(
            delayedTransport(createDefaultRpcTransport({ url: rpcServer.url }), rpcLatencyMs),
          ),
        }
      : {};
  const instances: { service: Service; server: RunningServer }[] = [];
  const startInstance = async (instanceOptions: TestServiceOptions, more: Record<string, string> = {}) => {
    const service = await createService(configWith(more), {
      log: createLogger('silent'),
      ...serviceRpc,
      ...instanceOptions,
    });
    await service.start();
    const instance = { service, server: await service.listen() };
    instances.push(instance);
    return instance;
  };
  const { service, server } = await startInstance(options);
  const usdcBalance = async (owner: Address) => {
    const ata = await usdcAccountOf(owner);
    const account = await rpc
      .getTokenAccountBalance(ata)
      .send()
      .catch(() => null);
    return account === null ? 0n : BigInt(account.value.amount);
  };
  return {
    chain,
    rpcServer,
    rpc,
    payer: payer!,
    payTo,
    usdcAuthority: usdcAuthority!,
    facilitators,
    service,
    server,
    url: server.url,
    usdcBalance,
    balances: async () => ({ payer: await usdcBalance(payer!.address), payTo: await usdcBalance(payTo) }),
    newPayer: async (usdc) => {
      const signer = await generateKeyPairSigner();
      await fundUsdc(chain, usdcAuthority!, [{ owner: signer.address, amount: usdc }]);
      return signer;
    },
    stateDir,
    startInstance: async (more = {}, moreEnv = {}) => {
      const own = moreEnv.STATE_DIR ?? (await freshStateDir());
      const instance = await startInstance({ ...options, ...more }, { STATE_DIR: own, ...moreEnv });
      return { url: instance.server.url, metricsUrl: instance.server.metricsUrl };
    },
    close: async () => {
      for (const instance of instances) {
        await instance.server.close();
        await instance.service.stop();
      }
      await Promise.all(facilitators.map((f) => f.close()));
      chain.stop();
      await rpcServer.close();
      await Promise.all(stateDirs.map((dir) => rm(dir, { recursive: true, force: true })));
    },
  };
}

/**
 * The sandbox's service under both RPC profiles the paid end-to-end tests use: the first instance
 * (`ideal`) and a second on the same chain whose RPC answers as `indexed-provider` does. Its RPC
 * server is closed by `close`.
 */
export async function startProfiledInstances(
  sandbox: PaidSandbox,
): Promise<{ readonly urls: ReadonlyMap<RpcProfileName, string>; close(): Promise<void> }> {
  const indexedRpc = await startSandboxRpc({
    chain: sandbox.chain,
    host: '127.0.0.1',
    port: 0,
    profile: { name: 'indexed-provider', rateLimit: null },
  });
  const indexed = await sandbox.startInstance({ rpc: createSolanaRpc(indexedRpc.url) });
  const urls = new Map<RpcProfileName, string>([
    ['ideal', sandbox.url],
    ['indexed-provider', indexed.url],
  ]);
  return { urls, close: () => indexedRpc.close() };
}

/**
 * The seeded /simulate/tx scenarios built on `sandbox`'s chain, each wallet a fresh key (given
 * SOL when the scenario asks for it).
 */
export function simulationsOn(
  sandbox: Pick<PaidSandbox, 'chain' | 'usdcAuthority'>,
): Promise<SimulationScenario[]> {
  return buildSimulations({
    chain: sandbox.chain,
    usdcAuthority: sandbox.usdcAuthority,
    wallet: async (_label, lamports) => {
      const { address } = await generateKeyPairSigner();
      if (lamports > 0n) sandbox.chain.setAccount({ address, lamports });
      return address;
    },
  });
}
