import { errorMessage } from '../../errors.js';
import { InvalidAddressError } from '../chain/addresses.js';
import type { SandboxChain } from '../chain/chain.js';
import type { MethodTable } from './context.js';
import { RpcError, RpcErrorCode } from './errors.js';
import { accountMethods } from './methods/accounts.js';
import { clusterMethods } from './methods/cluster.js';
import { historyMethods } from './methods/history.js';
import { submitMethods } from './methods/submit.js';
import { tokenMethods } from './methods/tokens.js';

export const METHODS: MethodTable = {
  ...clusterMethods,
  ...accountMethods,
  ...tokenMethods,
  ...historyMethods,
  ...submitMethods,
};

type Id = string | number | null;

export interface JsonRpcResponse {
  jsonrpc: '2.0';
  id: Id;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

function errorResponse(id: Id, error: RpcError): JsonRpcResponse {
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: error.code,
      message: error.message,
      ...(error.data === undefined ? {} : { data: error.data }),
    },
  };
}

/** Agave checks `minContextSlot` on every method that takes a config; so does the sandbox, in one place. */
function checkMinContextSlot(chain: SandboxChain, params: unknown[]): void {
  for (const param of params) {
    if (!param || typeof param !== 'object' || Array.isArray(param)) continue;
    const min = (param as Record<string, unknown>).minContextSlot;
    if (typeof min === 'number' && BigInt(min) > chain.slot) {
      throw new RpcError(RpcErrorCode.MinContextSlotNotReached, 'Minimum context slot has not been reached', {
        contextSlot: chain.slot,
      });
    }
  }
}

/** A provider profile's refusal of a call, checked before the call is dispatched (see profiles.ts). */
export type CallGate = (call: { method: string; params: unknown }) => RpcError | undefined;

async function handleOne(chain: SandboxChain, request: unknown, gate?: CallGate): Promise<JsonRpcResponse> {
  if (!request || typeof request !== 'object' || Array.isArray(request)) {
    return errorResponse(null, new RpcError(RpcErrorCode.InvalidRequest, 'Invalid request'));
  }
  const { jsonrpc, id = null, method, params = [] } = request as Record<string, unknown>;
  const validId = typeof id === 'string' || typeof id === 'number' || id === null;
  if (jsonrpc !== '2.0' || typeof method !== 'string' || !validId) {
    return errorResponse(
      validId ? (id as Id) : null,
      new RpcError(RpcErrorCode.InvalidRequest, 'Invalid request'),
    );
  }
  const refused = gate?.({ method, params });
  if (refused) return errorResponse(id as Id, refused);
  const handler = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
  if (!handler) return errorResponse(id as Id, new RpcError(RpcErrorCode.MethodNotFound, 'Method not found'));
  if (!Array.isArray(params)) {
    return errorResponse(
      id as Id,
      new RpcError(RpcErrorCode.InvalidParams, 'Invalid params: expected an array'),
    );
  }
  try {
    checkMinContextSlot(chain, params);
    return { jsonrpc: '2.0', id: id as Id, result: await handler(chain, params) };
  } catch (error) {
    if (error instanceof RpcError) return errorResponse(id as Id, error);
    if (error instanceof InvalidAddressError) {
      return errorResponse(id as Id, new RpcError(RpcErrorCode.InvalidParams, 'Invalid param: Invalid'));
    }
    const message = errorMessage(error);
    return errorResponse(id as Id, new RpcError(RpcErrorCode.InternalError, `Internal error: ${message}`));
  }
}

/** One JSON-RPC body: a request or a batch. An empty batch is itself an invalid request, per the spec. */
export async function handleJsonRpc(
  chain: SandboxChain,
  body: unknown,
  gate?: CallGate,
): Promise<JsonRpcResponse | JsonRpcResponse[]> {
  if (Array.isArray(body)) {
    if (body.length === 0)
      return errorResponse(null, new RpcError(RpcErrorCode.InvalidRequest, 'Invalid request'));
    const responses: JsonRpcResponse[] = [];
    // Sequential, so a batch that sends then reads sees its own writes in order.
    for (const request of body) responses.push(await handleOne(chain, request, gate));
    return responses;
  }
  return handleOne(chain, body, gate);
}
