/**
 * The real service in its own process, configured like production (info-level JSON logs to
 * stdout), against a local stand-in facilitator. Prints {"port":N} once it is listening.
 * With TAKE_PAYMENTS=true it also has its scanners and payment state (STATE_DIR), as
 * `npm start` has, so it sells; without, it only makes offers.
 */
import { parseConfig } from '../../src/config.js';
import { SCANNERS } from '../../src/scans/registry.js';
import { createService, OFFERS_ONLY, selling } from '../../src/service/index.js';

const config = parseConfig({
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  RISK_SCAN_MODE: 'mainnet',
  VERIFIED_TOKENS_URL: 'none',
});
const mode = process.env.TAKE_PAYMENTS === 'true' ? selling(SCANNERS) : OFFERS_ONLY;
const service = await createService(config, { healthChecks: {}, mode });
await service.start();
const running = await service.listen();
process.stderr.write(`${JSON.stringify({ port: Number(new URL(running.url).port) })}\n`);
