/**
 * POST /mcp: the API's MCP endpoint (Streamable HTTP, stateless, JSON answers). Each request
 * gets its own server and transport, as the SDK requires of stateless transports; tools are
 * paid with the x402 MCP transport through callPaidTool. GET and DELETE (SSE streams, sessions)
 * are not served: the app's 405 answers them with `Allow: POST`.
 */
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Hono } from 'hono';
import type { AppEnv, RequestFrame } from '../server/context.js';
import { requestOrigin } from '../server/origin.js';
import type { PaidRouteDeps } from '../server/paid-routes.js';
import { callPaidTool, type ToolCallSite } from './paid-tool.js';
import { createToolServer } from './tool-server.js';
import { MCP_PATH } from './tools.js';

/** Largest JSON-RPC body taken: a tool call with its payment is ~2 KiB (simulate_tx's transaction adds at most 1.6 KiB). */
export const MAX_MCP_BODY_BYTES = 64 * 1024;

export const MCP_INSTRUCTIONS =
  'Each paid tool costs the USDC price in its description, paid with x402 on Solana: call it without payment to receive the PaymentRequired offer (isError, structuredContent), then call it again with the signed PaymentPayload in _meta["x402/payment"]. The settlement comes back in _meta["x402/payment-response"]. A bad argument is refused before any payment; a failed scan is never charged; the same payment with the same arguments returns the same result.';

const HOW_PAID = 'paid with x402 (USDC on Solana) through _meta["x402/payment"]';

/** The site of one HTTP request: its first paid call takes the request's own id (X-Request-Id). */
function callSite(origin: string, frame: RequestFrame): ToolCallSite {
  let first = true;
  const requestId = frame.requestId;
  return {
    origin,
    logFields: frame.logFields,
    nextRequestId: () => {
      if (!first) return randomUUID();
      first = false;
      return requestId;
    },
  };
}

export function registerMcpRoute(app: Hono<AppEnv>, deps: PaidRouteDeps): void {
  app.post(MCP_PATH, async (c) => {
    const frame = c.env.frame;
    frame.route = MCP_PATH;
    const site = callSite(requestOrigin(deps.publicBaseUrl, c.req.url), frame);
    const server = createToolServer({
      howPaid: HOW_PAID,
      instructions: MCP_INSTRUCTIONS,
      call: (endpoint, value, meta) => callPaidTool(deps, site, endpoint, value, meta),
    });
    // No sessionIdGenerator: stateless.
    const transport = new WebStandardStreamableHTTPServerTransport({
      enableJsonResponse: true,
      maxRequestBodySize: MAX_MCP_BODY_BYTES,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      // JSON mode: the answer is complete once handleRequest resolves.
      await server.close();
    }
  });
}
