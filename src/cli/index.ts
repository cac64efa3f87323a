/**
 * The `risk-scan` command.
 *   risk-scan sandbox                 the offline sandbox (simulated mainnet, local facilitators, API)
 *   risk-scan serve                   the service as configured by the environment (npm start)
 *   risk-scan call <path> [options]   pay for one call with x402 and print the result
 */
import { parseArgs } from 'node:util';
import { ConfigError, parseConfig } from '../config.js';
import { KeypairFileError } from '../sandbox/keypair-file.js';
import { StateError } from '../stores/state.js';
import { CallError, payAndCall } from './call.js';
import { serve, stopOnSignals } from './serve.js';

const USAGE = `Usage:
  risk-scan sandbox                       run the offline sandbox (simulation, test USDC)
  risk-scan serve                         run the service as configured by the environment
  risk-scan call <path> [--keypair FILE] [--max-usd N] [--api URL] [--rpc URL]
                                          pay for one call and print the result
                                          (defaults: the running sandbox and its payer; --max-usd 1)`;

async function call(args: string[], env: Record<string, string | undefined>): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      keypair: { type: 'string' },
      'max-usd': { type: 'string', default: '1' },
      api: { type: 'string' },
      rpc: { type: 'string' },
    },
  });
  const path = positionals[0];
  const maxUsd = Number(values['max-usd']);
  if (path === undefined || !Number.isFinite(maxUsd) || maxUsd < 0) {
    console.error(USAGE);
    return 2;
  }
  const outcome = await payAndCall({
    path,
    maxUsd,
    sandboxDir: env.SANDBOX_DIR ?? '.sandbox',
    ...(values.api ? { api: values.api } : {}),
    ...(values.rpc ? { rpc: values.rpc } : {}),
    ...(values.keypair ? { keypair: values.keypair } : {}),
  });
  console.log(
    `HTTP ${outcome.status}${outcome.paidUsd !== null ? ` — paid ${outcome.paidUsd.toFixed(2)} USDC` : ''}`,
  );
  if (outcome.settlement) console.log(`settlement: ${JSON.stringify(outcome.settlement)}`);
  console.log(JSON.stringify(outcome.body, null, 2));
  return outcome.status === 200 ? 0 : 1;
}

export async function runCli(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === 'sandbox' || command === 'serve') {
      const config = parseConfig(command === 'sandbox' ? { ...env, RISK_SCAN_MODE: 'sandbox' } : env);
      stopOnSignals(await serve(config));
      return -1; // keeps running
    }
    if (command === 'call') return await call(rest, env);
    console.error(USAGE);
    return command === undefined || command === '--help' || command === 'help' ? 0 : 2;
  } catch (e) {
    if (e instanceof ConfigError || e instanceof CallError || e instanceof KeypairFileError) {
      console.error(e.message);
      return 2;
    }
    if (e instanceof StateError) {
      console.error(e.message);
      return 1;
    }
    if (e instanceof TypeError && (e as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      console.error(`${e.message}\n${USAGE}`);
      return 2;
    }
    throw e;
  }
}
