/**
 * The `risk-scan` command.
 *   risk-scan sandbox [--ports auto] [--account ADDRESS FILE] [--accounts-dir DIR]
 *                                     the offline sandbox (simulated mainnet, local facilitators, API)
 *   risk-scan serve [--ports auto]    the service as configured by the environment (npm start)
 *   risk-scan call <path> [options]   pay for one call with x402 and print the result
 *   risk-scan evaluate --labels FILE  score a labelled list and measure precision and recall
 *   risk-scan mcp [options]           an MCP server on stdio whose tools pay the API from a keypair
 *   risk-scan act <subject> <action>  send a sandbox action that changes a subject's verdict
 *
 * Every command ends in one line on stderr when its environment fails it, with an exit code from
 * EXIT (src/cli/failures.ts); `--verbose`, anywhere on the line, adds the cause chain.
 */
import { parseArgs } from 'node:util';
import { unexpectedFailure } from '../client/failures.js';
import { type Config, parseConfig } from '../config.js';
import type { AccountsToLoad } from '../sandbox/loaded-accounts.js';
import { base58Problem } from '../solana/base58.js';
import { ACT_USAGE, actCommand } from './act.js';
import { CALL_USAGE, callCommand } from './call.js';
import { EVALUATE_USAGE, evaluate } from './evaluate.js';
import { causeChain, describeFailure, EXIT } from './failures.js';
import { MCP_USAGE, mcpCommand } from './mcp.js';
import { usageError } from './options.js';
import { type Running, serve, stopOnSignals } from './serve.js';

const SANDBOX_USAGE = `  risk-scan sandbox [--ports auto] [--account ADDRESS FILE]... [--accounts-dir DIR]...
                                          run the offline sandbox (simulation, test USDC);
                                          --ports auto: on free ports, printed in the banner;
                                          --account / --accounts-dir: load account dumps
                                          (solana account --output json), listed in sandbox.json`;

const SERVE_USAGE = `  risk-scan serve [--ports auto]          run the service as configured by the environment`;

const FOOTER = `  --verbose                               on failure, print the cause chain too (for bug reports)
  --help, -h                              after a command: print that command's usage
Exit codes: 0 done, 1 failed (see the line on stderr), 2 wrong usage or configuration.`;

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

/** `sandbox` and `serve`: start the service and keep running (-1) until a signal stops it. */
async function startCommand(
  command: 'sandbox' | 'serve',
  rest: string[],
  env: Record<string, string | undefined>,
  verbose: boolean,
  configured: (config: Config) => void,
): Promise<number> {
  const options = startOptions(rest);
  const config = parseConfig({
    ...env,
    ...(command === 'sandbox' ? { RISK_SCAN_MODE: 'sandbox' } : {}),
    ...options.env,
  });
  configured(config);
  const loading = options.accounts.files.length + options.accounts.dirs.length > 0;
  if (loading && config.mode !== 'sandbox')
    throw usageError('--account and --accounts-dir load accounts into the sandbox: use risk-scan sandbox');
  stopOnSignals(await start(config, options.accounts, verbose));
  return -1; // keeps running
}

interface Command {
  /** Its lines of the usage, printed by `risk-scan <command> --help`. */
  readonly usage: string;
  /** `configured`: told the configuration once read, so a start failure can name its variables. */
  run(
    args: string[],
    env: Record<string, string | undefined>,
    verbose: boolean,
    configured: (config: Config) => void,
  ): Promise<number>;
}

/** Every command: the dispatch and the usage are one table, so no command goes without --help. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  sandbox: { usage: SANDBOX_USAGE, run: (args, env, v, c) => startCommand('sandbox', args, env, v, c) },
  serve: { usage: SERVE_USAGE, run: (args, env, v, c) => startCommand('serve', args, env, v, c) },
  call: { usage: CALL_USAGE, run: (args, env) => callCommand(args, env) },
  evaluate: { usage: EVALUATE_USAGE, run: (args) => evaluate(args) },
  mcp: { usage: MCP_USAGE, run: (args, env) => mcpCommand(args, env) },
  act: { usage: ACT_USAGE, run: (args, env) => actCommand(args, env) },
};

const USAGE = `Usage:\n${Object.values(COMMANDS)
  .map((c) => c.usage)
  .join('\n')}\n${FOOTER}`;

const asksForHelp = (args: readonly string[]) => args.includes('--help') || args.includes('-h');

/** Runs a command; resolves to its exit code, or -1 while the service keeps running. */
export async function runCli(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  const verbose = argv.includes('--verbose');
  const [name, ...rest] = argv.filter((a) => a !== '--verbose');
  const command = name !== undefined && Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command === undefined) {
    console.error(USAGE);
    return name === undefined || name === '--help' || name === '-h' || name === 'help' ? EXIT.ok : EXIT.usage;
  }
  if (asksForHelp(rest)) {
    console.log(`Usage:\n${command.usage}\n${FOOTER}`);
    return EXIT.ok;
  }
  let config: Config | null = null;
  try {
    return await command.run(rest, env, verbose, (c) => {
      config = c;
    });
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
