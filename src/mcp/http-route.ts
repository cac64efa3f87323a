/**
 * POST /mcp: the API's MCP endpoint (Streamable HTTP, stateless, JSON answers). Each request
 * gets its own server and transport, as the SDK requires of stateless transports; tools are
 * paid with the x402 MCP transport through callPaidTool, at the paid door. GET and DELETE (SSE
 * streams, sessions) are not served: the app's 405 answers them with `Allow: POST`.
 *
 * It answers whole web Requests and knows nothing of the HTTP server: the composition root
 * (service/app.ts) mounts it at MCP_PATH.
 */
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { PaidDoor } from '../door/paid-door.js';
import { callPaidTool, type ToolCallSite } from './paid-tool.js';
import { createToolServer } from './tool-server.js';
import { MCP_PATH } from './tools.js';

/** Largest JSON-RPC body taken: a tool call with its payment is ~2 KiB (simulate_tx's transaction adds at most 1.6 KiB). */
export const MAX_MCP_BODY_BYTES = 64 * 1024;

export const MCP_INSTRUCTIONS =
  'Each paid tool costs the USDC price in its description, paid with x402 on Solana: call it without payment to receive the PaymentRequired offer (isError, structuredContent), then call it again with the signed PaymentPayload in _meta["x402/payment"]. The settlement comes back in _meta["x402/payment-response"]. A bad argument is refused before any payment; a failed scan is never charged; the same payment with the same arguments returns the same result.';

const HOW_PAID = 'paid with x402 (USDC on Solana) through _meta["x402/payment"]';

/** What the MCP endpoint knows of the HTTP request that carried it. */
export interface McpRequestSite {
  /** PUBLIC_BASE_URL or the request's origin. */
  readonly origin: string;
  /** The request's id (X-Request-Id): its first paid call takes it. */
  readonly requestId: string;
  /** Fields for the request's log line. */
  readonly logFields: Record<string, unknown>;
}

/** The site of one HTTP request: its first paid call takes the request's own id (X-Request-Id). */
function callSite(request: McpRequestSite): ToolCallSite {
  let first = true;
  return {
    origin: request.origin,
    logFields: request.logFields,
    nextRequestId: () => {
      if (!first) return randomUUID();
      first = false;
      return request.requestId;
    },
  };
}

/** The MCP endpoint's handler, to mount at `path` (POST). */
export function createMcpHandler(door: PaidDoor, discountPercent = 0) {
  return {
    path: MCP_PATH,
    async answer(request: Request, site: McpRequestSite): Promise<Response> {
      const tools = callSite(site);
      const server = createToolServer({
        howPaid: HOW_PAID,
        instructions: MCP_INSTRUCTIONS,
        call: (endpoint, args, meta) => callPaidTool(door, tools, endpoint, args, meta),
        discountPercent,
      });
      // No sessionIdGenerator: stateless.
      const transport = new WebStandardStreamableHTTPServerTransport({
        enableJsonResponse: true,
        maxRequestBodySize: MAX_MCP_BODY_BYTES,
      });
      await server.connect(transport);
      try {
        return await transport.handleRequest(request);
      } finally {
        // JSON mode: the answer is complete once handleRequest resolves.
        await server.close();
      }
    },
  };
}
