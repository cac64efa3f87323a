/**
 * `npm start`: the service, configured from the environment. With no PAY_TO it runs the
 * offline sandbox; with PAY_TO it serves Solana mainnet.
 */
import { serve, stopOnSignals } from './cli/serve.js';
import { ConfigError, parseConfig } from './config.js';

try {
  stopOnSignals(await serve(parseConfig(process.env)));
} catch (e) {
  if (!(e instanceof ConfigError)) throw e;
  console.error(e.message);
  process.exit(2);
}
