/**
 * The comparison: a bare Hono app on @hono/node-server behind the official x402 middleware
 * (@x402/hono's paymentMiddleware, configured as its README shows), selling the wallet scan
 * at the catalog's price in Solana mainnet USDC to PAY_TO through FACILITATOR_URL. Its
 * handler answers the body in RESULT_FILE (a cached scan result recorded from the service),
 * so a paid call costs what the middleware costs: verify, handler, settle.
 * Prints {"port":N} once it is listening.
 */
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { HTTPFacilitatorClient } from '@x402/core/server';
import type { Network } from '@x402/core/types';
import { paymentMiddleware, x402ResourceServer } from '@x402/hono';
import { ExactSvmScheme } from '@x402/svm/exact/server';
import { Hono } from 'hono';
import { PAID_ENDPOINTS } from '../../src/catalog.js';
import { SOLANA_MAINNET_CAIP2 } from '../../src/x402/networks.js';

const wallet = PAID_ENDPOINTS.find((e) => e.id === 'wallet')!;
const network = SOLANA_MAINNET_CAIP2 as Network;
const result = readFileSync(process.env.RESULT_FILE!, 'utf8');

const resourceServer = new x402ResourceServer(
  new HTTPFacilitatorClient({ url: process.env.FACILITATOR_URL! }),
).register(network, new ExactSvmScheme());

const app = new Hono();
app.use(
  paymentMiddleware(
    {
      'GET /scan/wallet/:address': {
        accepts: {
          scheme: 'exact',
          price: `$${wallet.price.usd}`,
          network,
          payTo: process.env.PAY_TO!,
          maxTimeoutSeconds: 60,
        },
        description: wallet.summary,
        mimeType: 'application/json',
      },
    },
    resourceServer,
  ),
);
app.get('/scan/wallet/:address', (c) => c.body(result, 200, { 'content-type': 'application/json' }));

serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stderr.write(`${JSON.stringify({ port: info.port })}\n`);
});
