import { parseConfig } from '/work/main/src/config.js';
import { createService } from '/work/main/src/service.js';
import { startFacilitatorStub } from '/work/main/test/helpers/facilitator-stub.js';

const stub = await startFacilitatorStub('2wKupLR9q6wXYppw8Gr2NvWxKBUqm4PPJKkQfoxHDBg4');
const config = parseConfig({
  PAY_TO: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
  FACILITATOR_URLS: stub.url,
  PORT: '18555',
  HOST: '127.0.0.1',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
});
const service = createService(config, { healthChecks: {} });
await service.start();
await service.listen();
process.stderr.write('ready\n');
process.on('SIGTERM', () => process.exit(0));
