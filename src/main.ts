/**
 * `npm start`: the service, configured from the environment. With no PAY_TO it runs the
 * offline sandbox; with PAY_TO it serves Solana mainnet.
 */
import { serve, stopOnSignals } from './cli/serve.js';
import { describeStartFailure } from './cli/start-failure.js';
import { type Config, ConfigError, parseConfig } from './config.js';

let config: Config;
try {
  config = parseConfig(process.env);
} catch (e) {
  if (!(e instanceof ConfigError)) throw e;
  console.error(e.message);
  process.exit(2);
}

try {
  stopOnSignals(await serve(config));
} catch (e) {
  const reason = describeStartFailure(e, config);
  if (reason === null) throw e;
  console.error(reason);
  process.exit(1);
}
