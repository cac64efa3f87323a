/**
 * The `risk-scan` command.
 *   risk-scan sandbox [--ports auto] [--account ADDRESS FILE] [--accounts-dir DIR]
 *                                     the offline sandbox (simulated mainnet, local facilitators, API)
 *   risk-scan serve [--ports auto]    the service as configured by the environment (npm start)
 *   risk-scan call <path> [options]   pay for one call with x402 and print the result
 *   risk-scan evaluate --labels FILE  score a labelled list and measure precision and recall
 *   risk-scan mcp [options]           an MCP server on stdio whose tools pay the API from a keypair
 *
 * Every command ends in one line on stderr when its environment fails it, with an exit code from
 * EXIT (src/cli/failures.ts); `--verbose`, anywhere on the line, adds the cause chain.
 */
import { parseArgs } from 'node:util';
import { type Config, parseConfig } from '../config.js';
import type { AccountsToLoad } from '../sandbox/loaded-accounts.js';
import { base58Problem } from '../solana/base58.js';
import { payAndCall } from './call.js';
import { evaluate } from './evaluate.js';
import { CliFailure, causeChain, describeFailure, EXIT, unexpectedFailure } from './failures.js';
import { type Running, serve, stopOnSignals } from './serve.js';

const USAGE = `Usage:
  risk-scan sandbox [--ports auto] [--account ADDRESS FILE]... [--accounts-dir DIR]...
                                          run the offline sandbox (simulation, test USDC);
                                          --ports auto: on free ports, printed in the banner;
                                          --account / --accounts-dir: load account dumps
                                          (solana account --output json), listed in sandbox.json
  risk-scan serve [--ports auto]          run the service as configured by the environment
  risk-scan call <path> [--keypair FILE] [--max-usd N] [--api URL] [--rpc URL] [--timeout SECONDS]
                 [--data JSON]            pay for one call and print the result (--data: POST it,
                                          e.g. /simulate/tx --data '{"transaction":"<base64>"}')
                                          (defaults: the running sandbox and its payer; --max-usd 1;
                                          --timeout 90, for each answer of the API or the RPC)
  risk-scan evaluate --labels FILE [--rpc URL] [--out FILE.json] [--timeout SECONDS]
                                          scan every subject of a labelled CSV (kind,address,label[,note])
                                          without payment and print precision and recall of the
                                          high-risk bucket per endpoint (default: the offline sandbox;
                                          --timeout 30, for each scan)
  risk-scan mcp [--keypair FILE] [--max-usd N] [--budget-usd N] [--api URL] [--rpc URL] [--timeout SECONDS]
                                          an MCP server on stdin/stdout for agents' hosts: one tool
                                          per paid endpoint, each call paid from the keypair as
                                          risk-scan call pays (same defaults; --url is --api);
                                          refuses calls over --max-usd and past --budget-usd
  --verbose                               on failure, print the cause chain too (for bug reports)
Exit codes: 0 done, 1 failed (see the line on stderr), 2 wrong usage or configuration.`;

const usageError = (text: string) => new CliFailure(`${text} (risk-scan --help shows the usage)`, EXIT.usage);

async function call(args: string[], env: Record<string, string | undefined>): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      keypair: { type: 'string' },
      'max-usd': { type: 'string', default: '1' },
      api: { type: 'string' },
      rpc: { type: 'string' },
      timeout: { type: 'string', default: '90' },
      data: { type: 'string' },
    },
  });
  const path = positionals[0];
  if (path === undefined) throw usageError('risk-scan call needs a path, e.g. /scan/token/<mint>');
  const maxUsd = usdOption('max-usd', values['max-usd']);
  const timeoutS = timeoutOption(values.timeout);
  const outcome = await payAndCall({
    path,
    maxUsd,
    timeoutS,
    sandboxDir: env.SANDBOX_DIR ?? '.sandbox',
    ...(values.api ? { api: values.api } : {}),
    ...(values.rpc ? { rpc: values.rpc } : {}),
    ...(values.keypair ? { keypair: values.keypair } : {}),
    ...(values.data !== undefined ? { data: values.data } : {}),
  });
  console.log(
    `HTTP ${outcome.status}${outcome.paidUsd !== null ? ` — paid ${outcome.paidUsd.toFixed(2)} USDC` : ''}`,
  );
  if (outcome.settlement) console.log(`settlement: ${JSON.stringify(outcome.settlement)}`);
  console.log(JSON.stringify(outcome.body, null, 2));
  return outcome.status === 200 ? EXIT.ok : EXIT.failed;
}

/** `--timeout`: seconds, above 0. */
function timeoutOption(text: string): number {
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw usageError('--timeout must be a number of seconds above 0');
  return seconds;
}

/** A USDC amount option: a number, 0 or more. */
function usdOption(option: string, text: string): number {
  const usd = Number(text);
  if (!Number.isFinite(usd) || usd < 0) throw usageError(`--${option} must be a number of USDC, 0 or more`);
  return usd;
}

/** `risk-scan mcp`: serves until the host closes stdin; resolves to -1 (keeps running). */
async function mcp(args: string[], env: Record<string, string | undefined>): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      keypair: { type: 'string' },
      'max-usd': { type: 'string', default: '1' },
      'budget-usd': { type: 'string' },
      api: { type: 'string' },
      url: { type: 'string' },
      rpc: { type: 'string' },
      timeout: { type: 'string', default: '90' },
    },
  });
  const timeoutS = timeoutOption(values.timeout);
  if (values.api !== undefined && values.url !== undefined && values.api !== values.url)
    throw usageError('--url is another name for --api: give one of them');
  const api = values.api ?? values.url;
  // Loaded only here: the other commands need none of the MCP SDK.
  const { servePayingMcp } = await import('../mcp/paying-server.js');
  await servePayingMcp({
    maxUsd: usdOption('max-usd', values['max-usd']),
    budgetUsd: values['budget-usd'] === undefined ? null : usdOption('budget-usd', values['budget-usd']),
    timeoutS,
    sandboxDir: env.SANDBOX_DIR ?? '.sandbox',
    ...(api ? { api } : {}),
    ...(values.rpc ? { rpc: values.rpc } : {}),
    ...(values.keypair ? { keypair: values.keypair } : {}),
  });
  return -1;
}

/** Takes each `--account ADDRESS FILE` out of `args` (parseArgs knows no two-value option). */
function accountPairs(args: string[]): { rest: string[]; files: { address: string; file: string }[] } {
  const rest: string[] = [];
  const files: { address: string; file: string }[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] !== '--account') {
      rest.push(args[i]!);
      continue;
    }
    const [address, file] = [args[i + 1], args[i + 2]];
    if (address === undefined || file === undefined || file.startsWith('--'))
      throw usageError('--account takes an address and a file: --account ADDRESS FILE');
    if (base58Problem(address, 32) !== null)
      throw usageError(`--account ${address}: not a base58 Solana address`);
    files.push({ address, file });
    i += 2;
  }
  return { rest, files };
}

/** The options of `sandbox` and `serve`: `--ports auto` and the accounts to load. */
function startOptions(args: string[]): { env: Record<string, string>; accounts: AccountsToLoad } {
  const { rest, files } = accountPairs(args);
  const { values } = parseArgs({
    args: rest,
    options: { ports: { type: 'string' }, 'accounts-dir': { type: 'string', multiple: true } },
  });
  const accounts = { files, dirs: values['accounts-dir'] ?? [] };
  if (values.ports === undefined) return { env: {}, accounts };
  if (values.ports !== 'auto') throw usageError(`--ports takes "auto", not ${JSON.stringify(values.ports)}`);
  return { env: { PORT: '0', SANDBOX_RPC_PORT: '0', SANDBOX_FACILITATOR_PORT: '0' }, accounts };
}

/**
 * Starts the service. A listen error that a server emits where no one listens (so that node would
 * end the process with "Unhandled 'error' event") is reported as any start failure is.
 */
async function start(config: Config, accounts: AccountsToLoad, verbose: boolean): Promise<Running> {
  const onUncaught = (e: unknown) => {
    process.exitCode = report(e, config, verbose);
    process.exit();
  };
  process.on('uncaughtException', onUncaught);
  try {
    return await serve(config, {}, accounts);
  } finally {
    process.off('uncaughtException', onUncaught);
  }
}

/** Writes the one line (and with --verbose the cause chain) and returns the exit code. */
function report(e: unknown, config: Config | null, verbose: boolean): number {
  const known = describeFailure(e, config);
  console.error(known?.line ?? unexpectedFailure(e));
  if (verbose) console.error(causeChain(e));
  return known?.code ?? EXIT.failed;
}

function isParseArgsError(e: unknown): e is TypeError {
  const code = (e as { code?: unknown } | null)?.code;
  return e instanceof TypeError && typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

/** Runs a command; resolves to its exit code, or -1 while the service keeps running. */
export async function runCli(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  const verbose = argv.includes('--verbose');
  const [command, ...rest] = argv.filter((a) => a !== '--verbose');
  let config: Config | null = null;
  try {
    if (command === 'sandbox' || command === 'serve') {
      const options = startOptions(rest);
      config = parseConfig({
        ...env,
        ...(command === 'sandbox' ? { RISK_SCAN_MODE: 'sandbox' } : {}),
        ...options.env,
      });
      const loading = options.accounts.files.length + options.accounts.dirs.length > 0;
      if (loading && config.mode !== 'sandbox')
        throw usageError(
          '--account and --accounts-dir load accounts into the sandbox: use risk-scan sandbox',
        );
      stopOnSignals(await start(config, options.accounts, verbose));
      return -1; // keeps running
    }
    if (command === 'call') return await call(rest, env);
    if (command === 'evaluate') return await evaluate(rest);
    if (command === 'mcp') return await mcp(rest, env);
    console.error(USAGE);
    return command === undefined || command === '--help' || command === 'help' ? EXIT.ok : EXIT.usage;
  } catch (e) {
    return report(isParseArgsError(e) ? usageError(e.message.replace(/\.$/, '')) : e, config, verbose);
  }
}

/**
 * Runs a command as a process (bin/risk-scan.mjs, src/main.ts). Once a command is done, a request
 * still hanging (an RPC past its timeout) does not keep the process alive.
 */
export async function main(argv: string[], env: Record<string, string | undefined>): Promise<void> {
  const code = await runCli(argv, env);
  if (code < 0) return;
  process.exitCode = code;
  setTimeout(() => process.exit(code), 500).unref();
}
