/**
 * `risk-scan sandbox` (and `npm start` with no configuration): a simulated Solana mainnet,
 * its JSON-RPC, two local x402 facilitators and the API, all on this machine, with a funded
 * test payer written to disk. Nothing here touches a real network or real money.
 */
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join, resolve } from 'node:path';
import { type Address, generateKeyPairSigner, type KeyPairSigner } from '@solana/kit';
import { generateKeypairWithBytes, writeKeypairFile } from '../client/keypair-file.js';
import type { Config } from '../config.js';
import type { RunningServer } from '../server/listen.js';
import type { Logger } from '../server/logger.js';
import { createService, OFFERS_ONLY, type Service, type ServiceOptions } from '../service/index.js';
import { writeWhole } from '../write-whole.js';
import { writeActorKeypairs } from './actors/keypair-files.js';
import { createSandboxChain, type SandboxChain } from './chain/chain.js';
import { type SandboxFacilitator, startSandboxFacilitator } from './facilitator/server.js';
import { type AccountsToLoad, type KeptAccounts, loadAccounts } from './loaded-accounts.js';
import { type SandboxRpc, startSandboxRpc } from './rpc/server.js';
import { usdcMintAuthority } from './scenarios/index.js';
import { loadOrSeed, restoreSeeded } from './seeded-snapshot.js';
import { fundUsdc, installUsdcMint, USDC_MINT, usdcAccountOf } from './usdc.js';

const SOL = 1_000_000_000n;
/** What the test payer starts with. */
export const PAYER_START = { sol: 10n * SOL, usdc: 1_000_000_000n } as const;

export interface RunningSandbox {
  readonly chain: SandboxChain;
  readonly rpc: SandboxRpc;
  readonly facilitators: readonly SandboxFacilitator[];
  readonly service: Service;
  readonly api: RunningServer;
  readonly payer: Address;
  readonly payTo: Address;
  /** Paths of the files written for clients. */
  readonly files: { readonly payer: string; readonly manifest: string };
  close(): Promise<void>;
}

export interface StartSandboxOptions {
  readonly config: Config;
  readonly log: Logger;
  /** Seed the named scenarios (default true); without them the chain holds only USDC. */
  readonly seed?: boolean;
  /** Account dumps written over the seeded chain (`--account`, `--accounts-dir`). */
  readonly accounts?: AccountsToLoad;
  /** What the service is asked to be; without, it makes offers only. */
  readonly serviceOptions?: ServiceOptions;
  /**
   * The milliseconds clock of the RPC profile's rate limit (default Date.now). A clock that
   * stands still is a plan whose second never ends: its bucket never refills, so a test can go
   * past it whatever the machine's speed.
   */
  readonly rpcClock?: () => number;
}

/**
 * The chain with its scenarios, from the snapshot of an earlier start when it is current (see
 * seeded-snapshot.ts). Seeding replaces the whole chain state, so it comes first and everything
 * the payments need is added after it.
 */
async function seededSandboxChain(config: Config, log: Logger, seed: boolean) {
  const chain = await createSandboxChain({ slotMs: config.sandbox.slotMs });
  if (!seed) {
    const usdcAuthority = await generateKeyPairSigner();
    installUsdcMint(chain, usdcAuthority.address);
    return { chain, usdcAuthority, manifest: null };
  }
  const seeded = await loadOrSeed({
    dir: config.sandbox.snapshotDir,
    slotMs: config.sandbox.slotMs,
    log: (message) => log.info(message),
  });
  restoreSeeded(chain, seeded);
  return { chain, usdcAuthority: await usdcMintAuthority(seeded.manifest), manifest: seeded.manifest };
}

/**
 * Listens on each fixed port (0 is any free port, as `--ports auto` asks) and lets go again, so
 * that a port in use fails the start at once, with the listen error naming host and port, rather
 * than after the chain is seeded or as an unhandled 'error' event of a server started later. All
 * are held until the last is open, so one port named twice is refused too.
 */
async function checkPortsFree(host: string, ports: readonly number[]): Promise<void> {
  const held: Server[] = [];
  try {
    for (const port of ports) {
      if (port === 0) continue;
      const probe = createServer();
      await new Promise<void>((resolve, reject) => {
        probe.once('error', reject);
        probe.listen({ port, host, exclusive: true }, () => resolve());
      });
      held.push(probe);
    }
  } finally {
    await Promise.all(held.map((probe) => new Promise((resolve) => probe.close(resolve))));
  }
}

/**
 * What the sandbox's payments stand on and no loaded dump may replace: its USDC mint (at the
 * real address, minted by the sandbox's own authority), the payer, the facilitators' fee payers,
 * payTo, and the USDC accounts of payer and payTo.
 */
async function keptAccounts(keys: {
  usdcAuthority: Address;
  payer: Address;
  feePayers: readonly Address[];
  payTo: Address;
}): Promise<KeptAccounts> {
  return new Map([
    [USDC_MINT, "the sandbox's USDC mint (the real address; the sandbox mints its test USDC)"],
    [keys.usdcAuthority, "the sandbox's USDC mint authority"],
    [keys.payer, "the sandbox's test payer"],
    ...keys.feePayers.map((a) => [a, "a sandbox facilitator's fee payer"] as const),
    [keys.payTo, 'payTo, the wallet the payments go to'],
    [await usdcAccountOf(keys.payer), "the test payer's USDC account"],
    [await usdcAccountOf(keys.payTo), "payTo's USDC account"],
  ]);
}

/** The chain, seeded, with the dumps loaded and the payments' accounts funded. */
async function fundedChain(config: Config, log: Logger, seed: boolean, accounts: AccountsToLoad) {
  const { chain, usdcAuthority, manifest: scenarios } = await seededSandboxChain(config, log, seed);
  const [feePayerA, feePayerB, payToSigner] = await Promise.all(
    Array.from({ length: 3 }, () => generateKeyPairSigner()),
  );
  const feePayers = [feePayerA!, feePayerB!];
  const payer = await generateKeypairWithBytes();
  const payTo = (config.payTo as Address | null) ?? payToSigner!.address;
  const kept = await keptAccounts({
    usdcAuthority: usdcAuthority.address,
    payer: payer.signer.address,
    feePayers: feePayers.map((f) => f.address),
    payTo,
  });
  const loaded = await loadAccounts(chain, accounts, kept).catch((e: unknown) => {
    chain.stop();
    throw e;
  });
  for (const s of [usdcAuthority, ...feePayers]) {
    chain.setAccount({ address: s.address, lamports: 1_000n * SOL });
  }
  chain.setAccount({ address: payer.signer.address, lamports: PAYER_START.sol });
  await fundUsdc(chain, usdcAuthority, [
    { owner: payer.signer.address, amount: PAYER_START.usdc },
    { owner: payTo, amount: 0n },
  ]);
  return { chain, scenarios, loaded, feePayers, payer, payTo };
}

/**
 * The RPC the clients and the API use (with the configured provider profile), and the two
 * facilitators. A facilitator runs on its own RPC, as a real one does: the facilitators read and
 * write the chain through an RPC of their own with no profile, on a free local port, so a
 * rate-limited profile (public-mainnet) limits the API's reads, not the settlement of payments.
 */
async function startChainServers(
  config: Config,
  chain: SandboxChain,
  feePayers: readonly KeyPairSigner[],
  rpcClock: (() => number) | undefined,
) {
  const host = config.host;
  const rpc = await startSandboxRpc({
    chain,
    host,
    port: config.sandbox.rpcPort,
    profile: { name: config.sandbox.rpcProfile, ...(rpcClock ? { now: rpcClock } : {}) },
  });
  const facilitatorRpc = await startSandboxRpc({ chain, host: '127.0.0.1', port: 0 });
  const facilitators = await Promise.all(
    feePayers.map((feePayer, i) =>
      startSandboxFacilitator({
        rpcUrl: facilitatorRpc.url,
        feePayer,
        host,
        port: config.sandbox.facilitatorPort === 0 ? 0 : config.sandbox.facilitatorPort + i,
      }),
    ),
  );
  return {
    rpc,
    facilitators,
    close: async () => {
      await Promise.all(facilitators.map((f) => f.close()));
      chain.stop();
      await Promise.all([rpc.close(), facilitatorRpc.close()]);
    },
  };
}

type ChainServers = Awaited<ReturnType<typeof startChainServers>>;
type FundedChain = Awaited<ReturnType<typeof fundedChain>>;

/** The service on the sandbox's chain and facilitators, listening; stopped with them if it cannot. */
async function startSandboxService(
  config: Config,
  parts: {
    payTo: Address;
    servers: ChainServers;
    log: Logger;
    serviceOptions: StartSandboxOptions['serviceOptions'];
  },
) {
  const { rpc, facilitators } = parts.servers;
  const service = await createService(
    {
      ...config,
      payTo: parts.payTo,
      rpcUrls: [rpc.url],
      // The sandbox RPC serves its WebSocket on its own port, unless the RPC is to have none.
      watch: { ...config.watch, wsUrl: config.watch.wsUrl === null ? null : rpc.wsUrl },
      facilitatorUrls: facilitators.map((f) => f.url),
    },
    { log: parts.log, mode: OFFERS_ONLY, ...parts.serviceOptions },
  );
  await service.start();
  const api = await service.listen().catch(async (e: unknown) => {
    // What already runs would keep the process alive after the failure is reported.
    await service.stop();
    await parts.servers.close();
    throw e;
  });
  return { service, api };
}

/** The payer's keypair file and the manifest clients read the sandbox's addresses from. */
async function writeSandboxFiles(
  config: Config,
  parts: {
    rpc: ChainServers['rpc'];
    facilitators: ChainServers['facilitators'];
    api: { url: string };
    payTo: Address;
    payer: FundedChain['payer'];
    scenarios: FundedChain['scenarios'];
    loaded: FundedChain['loaded'];
  },
) {
  const { rpc, facilitators, api, payTo, payer, scenarios, loaded } = parts;
  const dir = resolve(config.sandbox.dir);
  await mkdir(dir, { recursive: true });
  const files = { payer: join(dir, 'payer.json'), manifest: join(dir, 'sandbox.json') };
  await writeKeypairFile(files.payer, payer);
  const manifest = {
    mode: 'sandbox',
    warning: 'SIMULATION: a local chain with test USDC. Nothing here is real money.',
    rpcUrl: rpc.url,
    wsUrl: rpc.wsUrl,
    apiUrl: api.url,
    facilitatorUrl: facilitators[0]!.url,
    facilitatorUrls: facilitators.map((f) => f.url),
    usdcMint: USDC_MINT,
    payTo,
    payer: {
      address: payer.signer.address,
      keypair: files.payer,
      usdc: String(PAYER_START.usdc),
      lamports: String(PAYER_START.sol),
    },
    // Each action's actor has its keypair file under actors/ (what a user acts on a watch with).
    subjects: [...(await writeActorKeypairs(join(dir, 'actors'), scenarios?.subjects ?? [])), ...loaded],
    // Unsigned transactions to try POST /simulate/tx on (the body's `transaction`).
    simulations: scenarios?.simulations ?? [],
  };
  await writeWhole(files.manifest, `${JSON.stringify(manifest, null, 2)}\n`);
  return files;
}

export async function startSandbox({
  config,
  log,
  seed = true,
  accounts = { files: [], dirs: [] },
  serviceOptions,
  rpcClock,
}: StartSandboxOptions): Promise<RunningSandbox> {
  const { facilitatorPort, rpcPort } = config.sandbox;
  await checkPortsFree(config.host, [
    config.port,
    rpcPort,
    facilitatorPort,
    facilitatorPort === 0 ? 0 : facilitatorPort + 1,
  ]);
  const { chain, scenarios, loaded, feePayers, payer, payTo } = await fundedChain(
    config,
    log,
    seed,
    accounts,
  );
  const servers = await startChainServers(config, chain, feePayers, rpcClock);
  const { rpc, facilitators } = servers;
  const { service, api } = await startSandboxService(config, { payTo, servers, log, serviceOptions });
  const files = await writeSandboxFiles(config, { rpc, facilitators, api, payTo, payer, scenarios, loaded });

  return {
    chain,
    rpc,
    facilitators,
    service,
    api,
    payer: payer.signer.address,
    payTo,
    files,
    close: async () => {
      await api.close();
      await service.stop();
      await servers.close();
    },
  };
}

export function sandboxBanner(s: RunningSandbox): string {
  const line = '='.repeat(78);
  return [
    line,
    '  SOLANA RISK SCAN — SANDBOX. This is a SIMULATION: a local chain with test USDC.',
    '  Nothing here is real money, and nothing here reaches Solana mainnet.',
    line,
    `  API           ${s.api.url}   (docs: ${s.api.url}/docs)`,
    `  MCP           ${s.api.url}/mcp   (hosts that cannot pay: npx risk-scan mcp)`,
    `  Solana RPC    ${s.rpc.url}   (WebSocket on the same port)`,
    `  Facilitators  ${s.facilitators.map((f) => f.url).join(', ')}`,
    `  Test payer    ${s.payer}  (1000 test USDC, 10 SOL)`,
    `                keypair: ${s.files.payer}`,
    `  Manifest      ${s.files.manifest}`,
    `  Try it        npx risk-scan call /scan/wallet/${s.payTo}`,
    line,
  ].join('\n');
}
