/**
 * An MCP server publishing the catalog's tools; what a paid tool does is passed in, so the API's
 * /mcp (which takes x402 payments) and `risk-scan mcp` (which pays from a keypair) share it.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { PaidEndpoint } from '../catalog.js';
import { SERVICE_NAME } from '../identity.js';
import { SERVICE_VERSION } from '../version.js';
import {
  endpointList,
  endpointListSchema,
  LIST_TOOL,
  LIST_TOOL_DESCRIPTION,
  TOOL_ENDPOINTS,
  toolAnnotations,
  toolDescription,
  toolInputShape,
  toolName,
} from './tools.js';

/**
 * Runs one paid tool call: `args` are its arguments (a GET's path parameter, a POST's body
 * properties), `meta` the request's `_meta` (where an x402 payment travels).
 */
export type PaidToolCall = (
  endpoint: PaidEndpoint,
  args: Readonly<Record<string, unknown>>,
  meta: Record<string, unknown> | undefined,
) => Promise<CallToolResult>;

export interface ToolServerOptions {
  /** How the price is paid, for the descriptions ("paid with x402 …"). */
  readonly howPaid: string;
  /** What the server tells the host's model once, at initialisation. */
  readonly instructions: string;
  readonly call: PaidToolCall;
  /** The operator's discount on prices per item (BATCH_DISCOUNT_PERCENT), for the descriptions. */
  readonly discountPercent?: number;
}

export function createToolServer(options: ToolServerOptions): McpServer {
  const server = new McpServer(
    { name: SERVICE_NAME, version: SERVICE_VERSION },
    { instructions: options.instructions },
  );
  for (const endpoint of TOOL_ENDPOINTS) {
    // No outputSchema: a PaymentRequired result carries the offer as structuredContent (x402 MCP
    // transport), and the SDK's client checks structuredContent against the schema even then.
    server.registerTool(
      toolName(endpoint),
      {
        title: endpoint.summary,
        description: toolDescription(endpoint, options.howPaid, options.discountPercent),
        inputSchema: toolInputShape(endpoint),
        annotations: toolAnnotations(endpoint),
      },
      (args, extra) => options.call(endpoint, args, extra._meta),
    );
  }
  server.registerTool(
    LIST_TOOL,
    {
      title: 'Endpoints and prices',
      description: LIST_TOOL_DESCRIPTION,
      outputSchema: endpointListSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () => {
      const list = endpointList(options.discountPercent);
      return { structuredContent: list, content: [{ type: 'text', text: JSON.stringify(list) }] };
    },
  );
  return server;
}
