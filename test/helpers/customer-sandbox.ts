/**
 * `risk-scan sandbox` as a customer meets it: its own start-up (seeded scenarios, real scanners)
 * on free ports under an RPC profile, and the official x402 client paying from the payer it
 * writes to disk.
 */
import { readFileSync } from 'node:fs';
import { createKeyPairSignerFromBytes } from '@solana/kit';
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { ExactSvmScheme } from '@x402/svm';
import { parseConfig } from '../../src/config.js';
import type { RpcProfileName } from '../../src/sandbox/rpc/profiles.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/start.js';
import type { CacheStore } from '../../src/scans/cache-store.js';
import { SCANNERS } from '../../src/scans/registry.js';
import { createLogger } from '../../src/server/logger.js';
import { selling } from '../../src/service/index.js';
import { TEST_SNAPSHOT_DIR } from './seeded-chain.js';

const CAIP2 = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';

/** The sandbox in `dir`, its RPC answering as `profile` (`env`: more settings; `cache`: in place of its own). */
export function startCustomerSandbox(
  dir: string,
  profile: RpcProfileName,
  env: Record<string, string> = {},
  cache?: CacheStore,
  rpcClock?: () => number,
): Promise<RunningSandbox> {
  const config = parseConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    SANDBOX_RPC_PORT: '0',
    SANDBOX_FACILITATOR_PORT: '0',
    SANDBOX_DIR: dir,
    SANDBOX_SNAPSHOT_DIR: TEST_SNAPSHOT_DIR,
    SANDBOX_RPC_PROFILE: profile,
    LOG_LEVEL: 'silent',
    ...env,
  });
  const mode = selling(SCANNERS, cache ? { cache } : {});
  return startSandbox({
    config,
    log: createLogger('silent'),
    serviceOptions: { mode },
    ...(rpcClock ? { rpcClock } : {}),
  });
}

/** fetch that pays with the official client from the sandbox's payer (payer.json), through its RPC unless given another. */
export async function payingFetch(sandbox: RunningSandbox, rpcUrl = sandbox.rpc.url): Promise<typeof fetch> {
  const payer = await createKeyPairSignerFromBytes(
    new Uint8Array(JSON.parse(readFileSync(sandbox.files.payer, 'utf8'))),
  );
  const client = new x402Client().register(CAIP2, new ExactSvmScheme(payer, { rpcUrl }));
  return wrapFetchWithPayment(fetch, client);
}
