/** What a failed connection or request means, in a few words a person can act on. */
const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** The code of a network error as undici reports it (its `cause`, or the first of several). */
function networkCode(e: unknown): string | undefined {
  let current: unknown = e;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'ERR_INVALID_ARG_TYPE') return code;
    const first = current instanceof AggregateError ? current.errors[0] : undefined;
    current = first ?? current.cause;
  }
  return undefined;
}

export function isTimeout(e: unknown): boolean {
  return e instanceof Error && (e.name === 'TimeoutError' || networkCode(e) === 'UND_ERR_CONNECT_TIMEOUT');
}

/** Why a connection failed, in a few words ("connection refused"). */
export function networkReason(e: unknown): string {
  switch (networkCode(e)) {
    case 'ECONNREFUSED':
      return 'connection refused (nothing listens there)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'its host name does not resolve';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'the connection was closed before an answer came';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the host cannot be reached from this machine';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'the connection timed out';
    default: {
      if (e instanceof Error && e.cause instanceof Error && e.cause.message === 'bad port')
        return 'fetch refuses to connect to that port (it is reserved for another protocol)';
      const inner = e instanceof Error && e.cause instanceof Error ? e.cause : e;
      return errorMessage(inner);
    }
  }
}
