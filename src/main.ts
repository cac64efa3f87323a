/**
 * `npm start`: the service, configured from the environment. With no PAY_TO it runs the
 * offline sandbox; with PAY_TO it serves Solana mainnet. The same as `risk-scan serve`
 * (`npm start -- --ports auto`, `npm start -- --verbose` pass its options).
 */
import { main } from './cli/index.js';

await main(['serve', ...process.argv.slice(2)], process.env);
