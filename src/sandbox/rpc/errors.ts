/** JSON-RPC error codes a mainnet node (agave) uses. */
export const RpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  SendTransactionPreflightFailure: -32002,
  TransactionSignatureVerificationFailure: -32003,
  UnsupportedTransactionVersion: -32015,
  MinContextSlotNotReached: -32016,
} as const;

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

export function invalidParams(detail: string): RpcError {
  return new RpcError(RpcErrorCode.InvalidParams, `Invalid params: ${detail}`);
}

/** agave's wording for a single bad parameter value ("Invalid param: WrongSize", "Invalid param: could not find account"). */
export function invalidParam(detail: string): RpcError {
  return new RpcError(RpcErrorCode.InvalidParams, `Invalid param: ${detail}`);
}
