/**
 * Composition root: configuration → service → HTTP server, with graceful shutdown.
 * `npm start` runs this file.
 */
import { ConfigError, parseConfig } from './config.js';
import { flushLogs } from './server/logger.js';
import { createService } from './service.js';

async function main(): Promise<void> {
  let config: ReturnType<typeof parseConfig>;
  try {
    config = parseConfig(process.env);
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  if (config.mode === 'sandbox') {
    console.error(
      'The offline sandbox is not available in this build yet. Set PAY_TO (the wallet that receives USDC) to serve Solana mainnet.',
    );
    process.exit(2);
  }
  const service = await createService(config);
  const { log } = service;
  // Listen first: /health and 402s answer (degraded) while the facilitators are still being asked.
  const running = await service.listen();
  void service.start();
  log.info({ url: running.url, mode: config.mode, payTo: config.payTo }, 'Solana Risk Scan is listening');

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing requests in flight');
    service.stop();
    const force = setTimeout(() => {
      log.warn('requests still running after 10 s; exiting');
      flushLogs(log);
      process.exit(1);
    }, 10_000);
    force.unref();
    void running.close().then(() => {
      flushLogs(log);
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

await main();
