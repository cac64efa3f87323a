/**
 * The service, configured from the environment: with no PAY_TO the offline sandbox, with PAY_TO
 * Solana mainnet; the same as `risk-scan serve`. Production runs it compiled (`npm start` is
 * `node bin/risk-scan.mjs serve`, which loads dist/); tests run this file through tsx.
 */
import { main } from './cli/index.js';

await main(['serve', ...process.argv.slice(2)], process.env);
