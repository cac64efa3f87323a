/** `risk-scan mcp`: the paying MCP server on stdio (src/mcp/paying-server.ts), from its options. */
import { parseArgs } from 'node:util';
import { payToOption, timeoutOption, usageError, usdOption } from './options.js';

export const MCP_USAGE = `  risk-scan mcp [--keypair FILE] [--max-usd N] [--budget-usd N] [--api URL] [--rpc URL] [--timeout SECONDS]
                [--pay-to ADDRESS]
                                          an MCP server on stdin/stdout for agents' hosts: one tool
                                          per paid endpoint, each call paid from the keypair as
                                          risk-scan call pays (same defaults; --url is --api);
                                          refuses calls over --max-usd and past --budget-usd,
                                          and (--pay-to) a 402 naming another payee`;

/** Serves until the host closes stdin; resolves to -1 (keeps running). */
export async function mcpCommand(args: string[], env: Record<string, string | undefined>): Promise<number> {
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
      'pay-to': { type: 'string' },
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
    ...payToOption(values['pay-to']),
    ...(api ? { api } : {}),
    ...(values.rpc ? { rpc: values.rpc } : {}),
    ...(values.keypair ? { keypair: values.keypair } : {}),
  });
  return -1;
}
