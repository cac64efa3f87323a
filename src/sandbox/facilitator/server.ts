/**
 * A local x402 facilitator for the sandbox: GET /supported, POST /verify, POST /settle in
 * x402 v1 and v2, settling on the sandbox chain with its own fee-payer key. Verification and
 * settlement are the official @x402/svm exact schemes, unchanged: what passes here passes
 * there.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSolanaRpc, type KeyPairSigner } from '@solana/kit';
import { x402Facilitator } from '@x402/core/facilitator';
import type { Network, PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { SettlementCache, toFacilitatorSvmSigner } from '@x402/svm';
import { ExactSvmScheme } from '@x402/svm/exact/facilitator';
import { ExactSvmSchemeV1 } from '@x402/svm/exact/v1/facilitator';
import { errorMessage } from '../../errors.js';

const CAIP2_MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' as Network;
const MAX_BODY_BYTES = 256 * 1024;

export interface SandboxFacilitatorOptions {
  readonly rpcUrl: string;
  readonly feePayer: KeyPairSigner;
  readonly host?: string;
  readonly port?: number;
}

export interface SandboxFacilitator {
  readonly url: string;
  readonly feePayer: string;
  close(): Promise<void>;
}

function buildFacilitator(options: SandboxFacilitatorOptions): x402Facilitator {
  // A map, not the RPC object itself: @x402/svm cannot tell kit's RPC proxy from a per-network map.
  const signer = toFacilitatorSvmSigner(options.feePayer, { '*': createSolanaRpc(options.rpcUrl) } as never);
  const cache = new SettlementCache();
  return new x402Facilitator()
    .register(CAIP2_MAINNET, new ExactSvmScheme(signer, cache))
    .registerV1('solana' as Network, new ExactSvmSchemeV1(signer, cache));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('request body too large');
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

type Call = { paymentPayload: PaymentPayload; paymentRequirements: PaymentRequirements };

function asCall(body: unknown): Call | null {
  const b = body as Partial<Call> | null;
  return b && typeof b === 'object' && b.paymentPayload && b.paymentRequirements ? (b as Call) : null;
}

export async function startSandboxFacilitator(
  options: SandboxFacilitatorOptions,
): Promise<SandboxFacilitator> {
  const facilitator = buildFacilitator(options);
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET' && req.url === '/supported') return send(res, 200, facilitator.getSupported());
    if (req.method !== 'POST' || (req.url !== '/verify' && req.url !== '/settle')) {
      return send(res, 404, { error: 'not_found' });
    }
    let call: Call | null;
    try {
      call = asCall(await readJson(req));
    } catch {
      call = null;
    }
    if (req.url === '/verify') {
      if (call === null) return send(res, 400, { isValid: false, invalidReason: 'invalid_payload' });
      const answer = await facilitator.verify(call.paymentPayload, call.paymentRequirements);
      return send(res, answer.isValid ? 200 : 400, answer);
    }
    if (call === null)
      return send(res, 400, { success: false, errorReason: 'invalid_payload', transaction: '', network: '' });
    const answer = await facilitator.settle(call.paymentPayload, call.paymentRequirements);
    return send(res, answer.success ? 200 : 400, answer);
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      const message = errorMessage(e);
      if (!res.headersSent) send(res, 500, { error: 'facilitator_error', message });
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    feePayer: options.feePayer.address,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
