/** Starts the real service on 127.0.0.1:0 with test configuration. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../src/config.js';
import type { RunningServer } from '../../src/server/listen.js';
import { createLogger } from '../../src/server/logger.js';
import { createService, OFFERS_ONLY, type Service, type ServiceOptions } from '../../src/service/index.js';

/** Real mainnet addresses used as stand-in wallets in tests. */
export const TEST_PAY_TO = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
export const TEST_FEE_PAYER = '2wKupLR9q6wXYppw8Gr2NvWxKBUqm4PPJKkQfoxHDBg4';
export const TEST_FEE_PAYER_2 = 'DEXVS3su4dZQWTvvPnLDJLRK1CeeKG6K3QqdzthgAkNV';

/**
 * What a test asks of its service: the service's own options, its mode said as production
 * callers say it (`selling(scanners, …)` or `OFFERS_ONLY`). A test that gives no options at all
 * gets a service that makes offers only.
 */
export type TestServiceOptions = ServiceOptions;

export interface TestService {
  readonly service: Service;
  readonly running: RunningServer;
  readonly url: string;
  close(): Promise<void>;
}

export async function startTestService(
  env: Record<string, string>,
  options: TestServiceOptions = { mode: OFFERS_ONLY },
): Promise<TestService> {
  // Payment state of its own, in a directory removed at close (never in the checkout).
  const stateDir = await mkdtemp(join(tmpdir(), 'test-service-state-'));
  const config = parseConfig({
    STATE_DIR: stateDir,
    RISK_SCAN_MODE: 'mainnet',
    // A busy test machine must not shed the calls a test makes; shedding has tests of its own.
    SHED_EVENT_LOOP_DELAY_MS: '0',
    PAY_TO: TEST_PAY_TO,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    FACILITATOR_TIMEOUT_MS: '500',
    // The bundled verified tokens: no test reaches Jupiter's list (tests of the refresh set their own).
    VERIFIED_TOKENS_URL: 'none',
    ...env,
  });
  const service = await createService(config, {
    log: createLogger('silent'),
    healthChecks: { rpc: async () => ({ status: 'ok', detail: 'test' }) },
    ...options,
  });
  await service.start();
  const running = await service.listen();
  return {
    service,
    running,
    url: running.url,
    close: async () => {
      await running.close();
      await service.stop();
      await rm(stateDir, { recursive: true, force: true });
    },
  };
}

/** Response JSON typed loosely: tests assert on its shape themselves. */
export const jsonOf = (res: Response): Promise<any> => res.json();
