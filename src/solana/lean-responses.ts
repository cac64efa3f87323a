/**
 * Kit's RPC, with the two answers a scan reads most of taken through a cheaper walk.
 *
 * Kit's response transformer walks every answer to turn its integers into bigints, but for the
 * few key paths a method keeps as numbers; for each node it copies the key path it stands at and
 * compares it with every such path. On an old token's ten full signature pages (10,000 entries)
 * that is over 20 ms of a scan's own work, on a young pump.fun token's 23 getTransaction answers
 * a few ms more. The walk here gives the same answer — the same bigints, the same numbers, a fresh
 * copy, the same SolanaError for an error answer — with the key paths compiled into a tree once,
 * so a node costs one lookup. It serves getTransaction and getSignaturesForAddress; every other
 * method is kit's, untouched. test/solana/lean-responses.test.ts holds the two walks together on
 * real mainnet answers (fixtures/mainnet/rpc).
 */
import {
  createRpc,
  createSolanaRpcApi,
  DEFAULT_RPC_CONFIG,
  getSolanaErrorFromJsonRpcError,
  type Rpc,
  type RpcApi,
  type RpcTransport,
  type SolanaRpcApi,
} from '@solana/kit';

/** Stands for any array index in a key path (kit's KEYPATH_WILDCARD, which kit does not re-export). */
const ANY: unique symbol = Symbol('any index');
type KeyPath = readonly (string | typeof ANY)[];

// Kit's own lists (kit 8.4: @solana/rpc-transformers' innerInstructionsConfigs, tokenBalancesConfigs,
// messageConfig; @solana/rpc-api's per-method lists), copied: kit exports none of them. The test
// above fails if kit's walk moves from them.
const INNER_INSTRUCTIONS: readonly KeyPath[] = [
  ['index'],
  ['instructions', ANY, 'accounts', ANY],
  ['instructions', ANY, 'programIdIndex'],
  ['instructions', ANY, 'stackHeight'],
];
const TOKEN_BALANCE: readonly KeyPath[] = [
  ['accountIndex'],
  ['uiTokenAmount', 'decimals'],
  ['uiTokenAmount', 'uiAmount'],
];
const MESSAGE: readonly KeyPath[] = [
  ['addressTableLookups', ANY, 'writableIndexes', ANY],
  ['addressTableLookups', ANY, 'readonlyIndexes', ANY],
  ['header', 'numReadonlySignedAccounts'],
  ['header', 'numReadonlyUnsignedAccounts'],
  ['header', 'numRequiredSignatures'],
  ['instructions', ANY, 'accounts', ANY],
  ['instructions', ANY, 'programIdIndex'],
  ['instructions', ANY, 'stackHeight'],
  ['transactionConfig', 'computeUnitLimit'],
  ['transactionConfig', 'heapSize'],
  ['transactionConfig', 'loadedAccountsDataSizeLimit'],
];

type LeanMethod = 'getSignaturesForAddress' | 'getTransaction';

/** Per method served here, the key paths whose integers stay numbers (all others become bigints). */
const NUMERIC_KEY_PATHS: Readonly<Record<LeanMethod, readonly KeyPath[]>> = {
  getSignaturesForAddress: [[ANY, 'transactionIndex']],
  getTransaction: [
    ...TOKEN_BALANCE.flatMap((path): KeyPath[] => [
      ['meta', 'preTokenBalances', ANY, ...path],
      ['meta', 'postTokenBalances', ANY, ...path],
    ]),
    ['meta', 'rewards', ANY, 'commission'],
    ...INNER_INSTRUCTIONS.map((path): KeyPath => ['meta', 'innerInstructions', ANY, ...path]),
    ...MESSAGE.map((path): KeyPath => ['transaction', 'message', ...path]),
    ['version'],
  ],
};

/** The key paths as a tree: a node's children by key (ANY for an array's elements); `numeric` ends a path. */
interface PathNode {
  readonly children: Map<string | typeof ANY, PathNode>;
  numeric: boolean;
}

function pathTree(paths: readonly KeyPath[]): PathNode {
  const root: PathNode = { children: new Map(), numeric: false };
  for (const path of paths) {
    let node = root;
    for (const key of path) {
      let next = node.children.get(key);
      if (next === undefined) {
        next = { children: new Map(), numeric: false };
        node.children.set(key, next);
      }
      node = next;
    }
    node.numeric = true;
  }
  return root;
}

/** Kit's leaf rule: an integer becomes a bigint, or a number where a key path allows one. */
function leaf(value: unknown, numeric: boolean): unknown {
  const integer = typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value));
  if (!integer) return value;
  return numeric ? Number(value) : BigInt(value as number | bigint);
}

/** A copy of `node` with kit's leaf rule applied below it; `at` is where it stands in the path tree. */
function walk(node: unknown, at: PathNode | undefined): unknown {
  if (Array.isArray(node)) {
    const below = at?.children.get(ANY);
    return node.map((element) => walk(element, below));
  }
  if (typeof node === 'object' && node !== null) {
    const out: Record<string, unknown> = {};
    for (const key in node) {
      if (!Object.hasOwn(node, key)) continue;
      out[key] = walk((node as Record<string, unknown>)[key], at?.children.get(key));
    }
    return out;
  }
  return leaf(node, at?.numeric === true);
}

const TREES = Object.fromEntries(
  Object.entries(NUMERIC_KEY_PATHS).map(([method, paths]) => [method, pathTree(paths)]),
) as Record<LeanMethod, PathNode>;

/** The answer's result as kit's transformer gives it, or kit's SolanaError for an error answer. */
function leanResult(response: unknown, method: LeanMethod): unknown {
  const json = response as { error?: unknown; result?: unknown };
  if ('error' in json) throw getSolanaErrorFromJsonRpcError(json.error);
  return walk(json.result, TREES[method]);
}

const isLean = (method: PropertyKey): method is LeanMethod =>
  typeof method === 'string' && Object.hasOwn(NUMERIC_KEY_PATHS, method);

type PlanConfig = { signal?: AbortSignal | undefined; transport: RpcTransport };
type Plan = { execute(config: PlanConfig): Promise<unknown> };

/** What kit's own walk is handed instead of the answer: nothing to walk. */
const NOTHING = Object.freeze({ jsonrpc: '2.0', result: null });

/**
 * Kit's plan for the call (so the request is kit's to the byte: its default commitment, its
 * checks), sent through the real transport, but with the answer kept back from kit's walk and
 * walked here instead.
 */
function leanPlan(plan: Plan, method: LeanMethod): Plan {
  return Object.freeze({
    async execute({ signal, transport }: PlanConfig) {
      let answer: unknown;
      const keepAnswer = (async (request: Parameters<RpcTransport>[0]) => {
        answer = await transport(request);
        return NOTHING;
      }) as RpcTransport;
      await plan.execute({ signal, transport: keepAnswer });
      return leanResult(answer, method);
    },
  });
}

/** Kit's Solana RPC API, with the lean methods' answers walked as above. */
function leanSolanaRpcApi(): RpcApi<SolanaRpcApi> {
  const kit = createSolanaRpcApi(DEFAULT_RPC_CONFIG);
  const planOf =
    (method: LeanMethod) =>
    (...params: unknown[]) =>
      leanPlan((kit[method] as (...p: unknown[]) => Plan)(...params), method);
  return new Proxy(kit, {
    get: (target, method, receiver) =>
      isLean(method) ? planOf(method) : Reflect.get(target, method, receiver),
  });
}

/** `createSolanaRpcFromTransport`, with the lean walk for getTransaction and getSignaturesForAddress. */
export function createLeanSolanaRpc(transport: RpcTransport): Rpc<SolanaRpcApi> {
  return createRpc({ api: leanSolanaRpcApi(), transport });
}
