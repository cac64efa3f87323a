export type {
  AccountInput,
  Commitment,
  SandboxChainOptions,
  SendOptions,
  SendResult,
  SimulateOptions,
  SimulationResult,
  SlotEvent,
} from './chain/chain.js';
export { createSandboxChain, SandboxChain, TransactionRejectedError } from './chain/chain.js';
export {
  type AccountDump,
  applyAccountDump,
  type LoadedDump,
  loadAccountFile,
  loadAccountsDir,
  parseAccountDump,
} from './chain/dumps.js';
export type { TransactionMeta, TransactionRecord } from './chain/history.js';
export {
  type ChainSnapshot,
  deserializeSnapshot,
  loadSnapshotFile,
  restoreSnapshot,
  saveSnapshotFile,
  serializeSnapshot,
  takeSnapshot,
} from './chain/snapshot.js';
export { type SandboxRpc, type SandboxRpcOptions, startSandboxRpc } from './rpc/server.js';
