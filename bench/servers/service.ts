/**
 * The real service in its own process, configured like production (info-level JSON logs to
 * stdout), against a local stand-in facilitator. Prints {"port":N} once it is listening.
 */
import { parseConfig } from '../../src/config.js';
import { createService } from '../../src/service.js';

const config = parseConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', RISK_SCAN_MODE: 'mainnet' });
const service = await createService(config, { healthChecks: {} });
await service.start();
const running = await service.listen();
process.stderr.write(`${JSON.stringify({ port: Number(new URL(running.url).port) })}\n`);
