/**
 * Why the service could not start, in words a person can act on: listen errors (a port in
 * use, an address not on this machine) name the variable to change instead of printing a
 * stack trace. Anything else is not ours to explain, and is left to surface as it is.
 */
import type { Config } from '../config.js';
import { StateError } from '../state/open.js';

interface ListenError {
  readonly code: string;
  readonly port?: number;
  readonly address?: string;
  readonly hostname?: string;
}

function isListenError(e: unknown): e is ListenError {
  return e instanceof Error && typeof (e as { code?: unknown }).code === 'string';
}

/** solana-test-validator's RPC port, which most Solana developers have running: also the sandbox's. */
const SOLANA_TEST_VALIDATOR_PORT = 8899;
const VALIDATOR_NOTE = ` (${SOLANA_TEST_VALIDATOR_PORT} is solana-test-validator's RPC port: is it running?)`;

/** The variables that set `port`, given the configuration (the sandbox listens on three ports). */
function portVariables(config: Config, port: number | undefined): string {
  const named: string[] = [];
  if (port === config.port) named.push('PORT');
  if (config.mode === 'sandbox') {
    if (port === config.sandbox.rpcPort) named.push('SANDBOX_RPC_PORT');
    if (port === config.sandbox.facilitatorPort || port === config.sandbox.facilitatorPort + 1)
      named.push('SANDBOX_FACILITATOR_PORT');
  }
  if (named.length > 0) return named.join(' or ');
  return config.mode === 'sandbox' ? 'PORT, SANDBOX_RPC_PORT or SANDBOX_FACILITATOR_PORT' : 'PORT';
}

/** A sentence explaining a failed start, or null when the error is not a known listen failure. */
export function describeStartFailure(e: unknown, config: Config): string | null {
  if (e instanceof StateError) return e.message;
  if (!isListenError(e)) return null;
  const where = `${e.address ?? config.host}${e.port === undefined ? '' : `:${e.port}`}`;
  switch (e.code) {
    case 'EADDRINUSE': {
      const validator = e.port === SOLANA_TEST_VALIDATOR_PORT ? VALIDATOR_NOTE : '';
      const fix =
        config.mode === 'sandbox'
          ? `Stop what holds it, set ${portVariables(config, e.port)} to a free port, or pass --ports auto to run the sandbox on free ports.`
          : `Stop what holds it, or set ${portVariables(config, e.port)} to a free port.`;
      return `Cannot listen on ${where}: the port is already in use${validator}. ${fix}`;
    }
    case 'EACCES':
      return `Cannot listen on ${where}: permission denied (ports below 1024 need privileges). Set ${portVariables(config, e.port)} to a port above 1023.`;
    case 'EADDRNOTAVAIL':
      return `Cannot listen on ${where}: the address is not one of this machine's. Set HOST to an address it has (e.g. 0.0.0.0 for all).`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `Cannot listen: HOST ${JSON.stringify(e.hostname ?? config.host)} does not resolve to an address. Set HOST to an IP address (e.g. 0.0.0.0 for all).`;
    default:
      return null;
  }
}
