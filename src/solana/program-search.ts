/**
 * Whether the RPC serves getProgramAccounts on the pump.fun program with a creator filter: the one
 * source that lists a creator's launches completely. Own nodes do; providers refuse the program
 * for its size (-32600 "Too many accounts requested"), the public endpoint answers HTTP 410.
 * Probed when the first pump.fun scan asks (and again when older than `refreshMs`, in the
 * background), apart from the capability families: a refusal here is expected of most providers, so it never makes /health
 * "down"; a pump.fun creator history (both token scans) reads it to choose its sources, and says which ran.
 */
import type { Base58EncodedBytes } from '@solana/kit';
import { PUMP_PROGRAM } from './programs.js';
import type { SolanaRpc } from './rpc.js';
import { type Capability, describeFailure } from './rpc-capabilities.js';

/** What a scan may rely on the RPC serving beyond the standard reads (absent: not known). */
export interface RpcServes {
  /** getProgramAccounts on pump.fun filtered by a curve's creator. */
  readonly pumpCreatorSearch: Capability;
}

const METHOD = 'getProgramAccounts';

/** One filtered scan naming a creator no curve has (the program itself): an empty answer when served. */
export async function probePumpCreatorSearch(rpc: SolanaRpc, timeoutMs: number): Promise<Capability> {
  try {
    const filter = {
      memcmp: { offset: 49n, bytes: PUMP_PROGRAM as Base58EncodedBytes, encoding: 'base58' as const },
    };
    await rpc
      .getProgramAccounts(PUMP_PROGRAM, {
        encoding: 'base64',
        dataSlice: { offset: 0, length: 0 },
        filters: [filter],
      })
      .send({ abortSignal: AbortSignal.timeout(timeoutMs) });
    return { available: true, method: METHOD };
  } catch (e) {
    return { available: false, method: METHOD, reason: describeFailure(e, METHOD, timeoutMs) };
  }
}

export interface ServesMonitor {
  /** Probes now (start-up awaits it); never rejects. */
  refresh(): Promise<void>;
  /** The last probe's answer; the first call waits for the first probe (a scan that needs it asks). */
  serves(): Promise<RpcServes | undefined>;
}

export function createServesMonitor(
  probe: () => Promise<Capability>,
  refreshMs: number,
  now: () => number = Date.now,
): ServesMonitor {
  let last: { at: number; serves: RpcServes } | undefined;
  let running: Promise<void> | null = null;
  const refresh = () => {
    running ??= probe()
      .then((pumpCreatorSearch) => {
        last = { at: now(), serves: { pumpCreatorSearch } };
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  return {
    refresh,
    serves: async () => {
      if (last === undefined) await refresh().catch(() => undefined);
      else if (now() - last.at >= refreshMs) void refresh().catch(() => undefined);
      return last?.serves;
    },
  };
}
