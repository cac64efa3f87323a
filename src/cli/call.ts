/**
 * `risk-scan call <path>`: pays for one call with x402 (the client package, through src/client) and writes the response
 * body, and only it, to stdout, so that `risk-scan call … | jq` works. The status and the
 * settlement receipt go to stderr, or with --include to stdout before the body (as curl -i).
 */
import { parseArgs } from 'node:util';
import { type CallOutcome, payAndCall } from '../client/pay.js';
import { EXIT } from './failures.js';
import { payToOption, timeoutOption, usageError, usdOption } from './options.js';

export const CALL_USAGE = `  risk-scan call <path> [--keypair FILE] [--max-usd N] [--api URL] [--rpc URL] [--timeout SECONDS]
                 [--data JSON] [--include] [--pay-to ADDRESS]
                                          pay for one call and print the response body on stdout
                                          (--data: POST it, e.g. /simulate/tx --data
                                          '{"transaction":"<base64>"}'); the status and the
                                          settlement go to stderr, or with --include (-i) to stdout
                                          before the body (defaults: the running sandbox and its
                                          payer; --max-usd 1; --timeout 90, for each answer of
                                          the API or the RPC); --pay-to pins the
                                          service's payee: a 402 naming another is refused,
                                          unpaid; every 200 is checked against the service's
                                          published signing key`;

/** The status line and the settlement receipt: what curl -i would show before the body. */
function headLines(outcome: CallOutcome): string[] {
  const paid = outcome.paidUsd !== null ? ` — paid ${outcome.paidUsd.toFixed(2)} USDC` : '';
  const lines = [`HTTP ${outcome.status}${paid}`];
  if (outcome.settlement) lines.push(`settlement: ${JSON.stringify(outcome.settlement)}`);
  return lines;
}

export async function callCommand(args: string[], env: Record<string, string | undefined>): Promise<number> {
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
      include: { type: 'boolean', short: 'i', default: false },
      'pay-to': { type: 'string' },
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
    ...payToOption(values['pay-to']),
    ...(values.api ? { api: values.api } : {}),
    ...(values.rpc ? { rpc: values.rpc } : {}),
    ...(values.keypair ? { keypair: values.keypair } : {}),
    ...(values.data !== undefined ? { data: values.data } : {}),
  });
  const head = headLines(outcome).join('\n');
  if (values.include) process.stdout.write(`${head}\n`);
  else process.stderr.write(`${head}\n`);
  process.stdout.write(`${JSON.stringify(outcome.body, null, 2)}\n`);
  return outcome.status === 200 ? EXIT.ok : EXIT.failed;
}
