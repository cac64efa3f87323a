import { randomBytes } from 'node:crypto';
import {
  type Address,
  appendTransactionMessageInstruction,
  type Blockhash,
  createKeyPairSignerFromPrivateKeyBytes,
  createTransactionMessage,
  getTransactionEncoder,
  type KeyPairSigner,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { Account, Clock, EpochSchedule, FailedTransactionMetadata, type TransactionMetadata } from 'litesvm';
import { type AddressAndAccount, LiteSvm, type SimulatedTransactionInfo } from 'litesvm/dist/internal.js';
import { errorMessage } from '../../errors.js';
import { SIMULATION_FEE_PAYER } from '../../solana/funded-wallet.js';
import { addressBytes, addressText, MAINNET_GENESIS_HASH, SYSTEM_PROGRAM } from './addresses.js';
import { type AccountReader, resolveAccountKeys, snapshotBalances } from './balances.js';
import { BlockhashWindow, MAX_PROCESSING_AGE, type RecentBlockhash } from './blockhashes.js';
import { blockHeightOf, epochOf, SLOTS_PER_EPOCH, SlotClock } from './clock.js';
import { innerInstructionsOf, memoOf, returnDataOf } from './execution.js';
import { transactionFee } from './fees.js';
import {
  type InnerInstructionSet,
  type LoadedAddresses,
  TransactionHistory,
  type TransactionMeta,
  type TransactionRecord,
} from './history.js';
import { verifySignatures } from './signatures.js';
import { isLoadStageFailure, type TransactionErrorJson, transactionErrorJson } from './tx-errors.js';
import { parseWireTransaction, type WireTransaction } from './wire.js';

export interface SandboxChainOptions {
  /** Milliseconds per slot, for the ticker and for timestamps. Default 400 (mainnet's target). */
  slotMs?: number;
  /** Advance one slot per `slotMs` of wall-clock time. Default true; tests turn it off and `warp()`. */
  autoAdvance?: boolean;
  /** First slot. Default: LiteSVM's (447 552 000), a plausible mainnet slot. */
  startSlot?: bigint;
  /** Slots after which a transaction counts as finalized. Default 32 (mainnet's usual root distance). */
  finalityDepth?: number;
  /** Reported by getGenesisHash. Default mainnet-beta's. */
  genesisHash?: string;
  /** Lamports in the airdrop faucet. Default 500 million SOL. */
  faucetLamports?: bigint;
  /** Wall clock, injectable for tests. */
  now?: () => number;
}

export type Commitment = 'processed' | 'confirmed' | 'finalized';

export interface AccountInput {
  address: string;
  lamports: bigint;
  data?: Uint8Array;
  owner?: string;
  executable?: boolean;
  rentEpoch?: bigint;
}

export interface SimulationResult {
  err: TransactionErrorJson | null;
  logs: string[];
  unitsConsumed: bigint;
  returnData: TransactionMeta['returnData'] | null;
  innerInstructions: InnerInstructionSet[];
  loadedAddresses: LoadedAddresses;
  /** Post-execution state of the accounts the transaction loaded. */
  postAccounts: Map<string, Account>;
  replacementBlockhash: { blockhash: string; lastValidBlockHeight: bigint } | null;
  fee: bigint;
}

export interface SimulateOptions {
  sigVerify?: boolean;
  replaceRecentBlockhash?: boolean;
}

export interface SendOptions {
  skipPreflight?: boolean;
}

/** Why a transaction was refused before it could land, in terms the RPC layer maps to mainnet's errors. */
export class TransactionRejectedError extends Error {
  constructor(
    readonly reason: 'malformed' | 'signature' | 'preflight' | 'sigverify-with-replace',
    message: string,
    readonly simulation?: SimulationResult,
  ) {
    super(message);
    this.name = 'TransactionRejectedError';
  }
}

export interface SendResult {
  signature: string;
  /** False when the transaction was dropped, as a leader drops a skipPreflight send that cannot load. */
  landed: boolean;
}

export interface SlotEvent {
  slot: bigint;
  parent: bigint;
  root: bigint;
}

/** The chain's state other than LiteSVM's own, for snapshots. */
export interface ChainState {
  svm: Uint8Array;
  slot: bigint;
  blockhashes: RecentBlockhash[];
  history: TransactionRecord[];
  faucetSeed: Uint8Array;
}

const DEFAULT_FAUCET_LAMPORTS = 500_000_000n * 1_000_000_000n;
/** What the always-funded mainnet wallet holds in the sandbox: far more than any simulated fee and rent. */
const SIMULATION_FEE_PAYER_LAMPORTS = 1_000n * 1_000_000_000n;
const U64_MAX = 0xffff_ffff_ffff_ffffn;

/** An account `programAccounts` lists: its address, the account and a copy of its data. */
export interface OwnedAccount {
  readonly address: Uint8Array;
  readonly account: Account;
  readonly data: Uint8Array;
}

/**
 * A simulated mainnet over LiteSVM: real SPL programs, a slot clock, mainnet's blockhash expiry and fees,
 * and a transaction history that LiteSVM itself does not keep.
 */
export class SandboxChain {
  readonly slotMs: number;
  readonly finalityDepth: bigint;
  readonly genesisHash: string;
  private svm: LiteSvm;
  private readonly clock: SlotClock;
  private currentSlot: bigint;
  private blockhashes: BlockhashWindow;
  private history = new TransactionHistory();
  private faucetSeed: Uint8Array;
  private faucet: Promise<KeyPairSigner> | undefined;
  /** `programAccounts` answers by program, kept until the accounts next change (`changed`). */
  private readonly owned = new Map<string, readonly OwnedAccount[]>();
  private readonly slotListeners = new Set<(event: SlotEvent) => void>();
  private readonly transactionListeners = new Set<(record: TransactionRecord) => void>();
  private ticker: NodeJS.Timeout | undefined;
  private readonly read: AccountReader = (address) => this.svm.getAccount(addressBytes(address));

  constructor(options: SandboxChainOptions = {}) {
    this.slotMs = options.slotMs ?? 400;
    this.finalityDepth = BigInt(options.finalityDepth ?? 32);
    this.genesisHash = options.genesisHash ?? MAINNET_GENESIS_HASH;
    this.svm = new LiteSvm();
    this.svm.withNativeMints();
    this.configureSvm();
    this.currentSlot = options.startSlot ?? this.svm.getClock().slot;
    this.clock = new SlotClock(this.currentSlot, this.slotMs, options.autoAdvance ?? true, options.now);
    this.svm.setEpochSchedule(new EpochSchedule(SLOTS_PER_EPOCH, SLOTS_PER_EPOCH, false, 0n, 0n));
    this.syncSvmClock();
    this.blockhashes = new BlockhashWindow([
      { blockhash: this.svm.latestBlockhash(), slot: this.currentSlot },
    ]);
    this.faucetSeed = new Uint8Array(randomBytes(32));
    if (options.autoAdvance ?? true) {
      this.ticker = setInterval(() => this.sync(), this.slotMs);
      // The ticker must never be what keeps a process (or a test runner) alive.
      this.ticker.unref();
    }
    this.faucetReady = this.fundFaucet(options.faucetLamports ?? DEFAULT_FAUCET_LAMPORTS);
  }

  /** Resolves once the faucet account exists; createSandboxChain awaits it. */
  readonly faucetReady: Promise<void>;

  private configureSvm(): void {
    // Our window replaces LiteSVM's single-latest-blockhash check; see BlockhashWindow.
    this.svm.setBlockhashCheck(false);
    this.svm.setSigverify(true);
  }

  private async fundFaucet(lamports: bigint): Promise<void> {
    const faucet = await this.faucetSigner();
    this.setAccount({ address: faucet.address, lamports });
    // Mainnet's always-funded wallet, which pays the fee of the scanner's simulated transfers.
    this.setAccount({ address: SIMULATION_FEE_PAYER, lamports: SIMULATION_FEE_PAYER_LAMPORTS });
  }

  private faucetSigner(): Promise<KeyPairSigner> {
    this.faucet ??= createKeyPairSignerFromPrivateKeyBytes(this.faucetSeed);
    return this.faucet;
  }

  // --- time -------------------------------------------------------------------------------

  /** Brings the slot up to the wall clock. Every public read calls it, so the chain never lags its ticker. */
  sync(): bigint {
    const target = this.clock.targetSlot();
    if (target > this.currentSlot) this.advanceTo(target);
    return this.currentSlot;
  }

  /** Moves the chain forward by `slots` at once (tests, or to age blockhashes and finalize transactions). */
  warp(slots: number | bigint): bigint {
    this.clock.warp(BigInt(slots));
    return this.sync();
  }

  advanceSlots(slots: number | bigint): bigint {
    return this.warp(slots);
  }

  get slot(): bigint {
    return this.sync();
  }

  get blockHeight(): bigint {
    return blockHeightOf(this.sync());
  }

  unixTimestamp(slot: bigint = this.sync()): number {
    return this.clock.unixTimestamp(slot);
  }

  private advanceTo(target: bigint): void {
    const parent = this.currentSlot;
    // Only the last MAX_PROCESSING_AGE slots' hashes can still be valid, so a long warp makes only those.
    const fresh = target - parent > MAX_PROCESSING_AGE ? MAX_PROCESSING_AGE + 1n : target - parent;
    for (let slot = target - fresh + 1n; slot <= target; slot++) {
      this.svm.expireBlockhash();
      this.blockhashes.push({ blockhash: this.svm.latestBlockhash(), slot });
    }
    this.currentSlot = target;
    this.blockhashes.prune(target);
    this.syncSvmClock();
    const event: SlotEvent = { slot: target, parent: target - 1n, root: this.rootSlot() };
    for (const listener of this.slotListeners) listener(event);
  }

  private syncSvmClock(): void {
    const slot = this.currentSlot;
    const { epoch } = epochOf(slot);
    const unix = BigInt(this.clock.unixTimestamp(slot));
    const epochStart = BigInt(this.clock.unixTimestamp(epoch * SLOTS_PER_EPOCH));
    this.svm.warpToSlot(slot);
    this.svm.setClock(new Clock(slot, epochStart, epoch, epoch + 1n, unix));
    this.changed();
  }

  private rootSlot(): bigint {
    const root = this.currentSlot - this.finalityDepth;
    return root > 0n ? root : 0n;
  }

  onSlot(listener: (event: SlotEvent) => void): () => void {
    this.slotListeners.add(listener);
    return () => this.slotListeners.delete(listener);
  }

  onTransaction(listener: (record: TransactionRecord) => void): () => void {
    this.transactionListeners.add(listener);
    return () => this.transactionListeners.delete(listener);
  }

  /** Stops the wall-clock ticker. The chain stays usable; slots then move only by `warp`. */
  stop(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
  }

  // --- blockhashes ----------------------------------------------------------------------------

  latestBlockhash(): { blockhash: string; lastValidBlockHeight: bigint; slot: bigint } {
    this.sync();
    const latest = this.blockhashes.latest();
    return { ...latest, lastValidBlockHeight: BlockhashWindow.lastValidBlockHeight(latest.slot) };
  }

  isBlockhashValid(blockhash: string): boolean {
    return this.blockhashes.isValid(blockhash, this.sync());
  }

  // --- accounts -------------------------------------------------------------------------------

  getAccount(address: string): Account | null {
    this.sync();
    return this.read(address);
  }

  setAccount(input: AccountInput): void {
    const account = new Account(
      input.lamports,
      input.data ?? new Uint8Array(),
      addressBytes(input.owner ?? SYSTEM_PROGRAM),
      input.executable ?? false,
      input.rentEpoch ?? U64_MAX,
    );
    this.svm.setAccount(addressBytes(input.address), account);
    this.changed();
  }

  /**
   * Accounts owned by `program`, with their data. LiteSVM keeps this owner index natively, but
   * copying each account's data out of it costs more than the query (2 ms for the seeded chain's
   * 800 SPL token accounts, which every token-secondary-index method walks): the copies are kept
   * until the chain's state next changes (`changed`).
   */
  programAccounts(program: string): readonly OwnedAccount[] {
    this.sync();
    const kept = this.owned.get(program);
    if (kept) return kept;
    const accounts = this.svm.getProgramAccounts(addressBytes(program)).map((entry: AddressAndAccount) => {
      const account = entry.account();
      return { address: entry.address, account, data: account.data() };
    });
    this.owned.set(program, accounts);
    return accounts;
  }

  /** Every write to LiteSVM's accounts ends here: what `programAccounts` kept is stale from now on. */
  private changed(): void {
    this.owned.clear();
  }

  minimumBalanceForRentExemption(dataLength: number | bigint): bigint {
    return this.svm.minimumBalanceForRentExemption(BigInt(dataLength));
  }

  // --- transactions ---------------------------------------------------------------------------

  feeFor(tx: WireTransaction): bigint {
    return transactionFee(tx);
  }

  parse(wire: Uint8Array): WireTransaction {
    try {
      return parseWireTransaction(wire);
    } catch (error) {
      throw new TransactionRejectedError('malformed', errorMessage(error));
    }
  }

  simulate(wire: Uint8Array, options: SimulateOptions = {}): SimulationResult {
    this.sync();
    let tx = this.parse(wire);
    if (options.sigVerify && options.replaceRecentBlockhash) {
      throw new TransactionRejectedError(
        'sigverify-with-replace',
        'sigVerify may not be used with replaceRecentBlockhash',
      );
    }
    if (options.sigVerify && !verifySignatures(tx)) {
      throw new TransactionRejectedError('signature', 'Transaction signature verification failure');
    }
    let replacementBlockhash: SimulationResult['replacementBlockhash'] = null;
    if (options.replaceRecentBlockhash) {
      const latest = this.latestBlockhash();
      const bytes = new Uint8Array(wire);
      bytes.set(addressBytes(latest.blockhash), tx.blockhashOffset);
      tx = parseWireTransaction(bytes);
      replacementBlockhash = {
        blockhash: latest.blockhash,
        lastValidBlockHeight: latest.lastValidBlockHeight,
      };
    }
    const { loadedAddresses } = resolveAccountKeys(tx, this.read);
    const fee = transactionFee(tx);
    if (!this.blockhashes.isValid(tx.recentBlockhash, this.currentSlot)) {
      return emptySimulation('BlockhashNotFound', loadedAddresses, fee);
    }
    // LiteSVM's simulation skips the status-cache check a bank does, so duplicates are caught here:
    // by first signature and, as mainnet's status cache does too, by message.
    if (this.history.processed(addressText(tx.signatures[0] ?? new Uint8Array(64)), tx.message)) {
      return emptySimulation('AlreadyProcessed', loadedAddresses, fee);
    }
    const result = this.withSigverify(false, () =>
      tx.version === 0
        ? this.svm.simulateVersionedTransaction(tx.bytes)
        : this.svm.simulateLegacyTransaction(tx.bytes),
    );
    const failed = result instanceof FailedTransactionMetadata;
    const meta: TransactionMetadata = result.meta();
    const postAccounts = new Map<string, Account>();
    if (!failed) {
      for (const entry of (result as SimulatedTransactionInfo).postAccounts()) {
        postAccounts.set(addressText(entry.address), entry.account());
      }
    }
    return {
      err: failed ? transactionErrorJson(result.err()) : null,
      logs: meta.logs(),
      unitsConsumed: meta.computeUnitsConsumed(),
      returnData: returnDataOf(meta),
      innerInstructions: innerInstructionsOf(meta),
      loadedAddresses,
      postAccounts,
      replacementBlockhash,
      fee,
    };
  }

  private withSigverify<T>(enabled: boolean, run: () => T): T {
    const previous = this.svm.getSigverify();
    this.svm.setSigverify(enabled);
    try {
      return run();
    } finally {
      this.svm.setSigverify(previous);
    }
  }

  /**
   * Mainnet's sendTransaction: with preflight, a transaction that would fail is refused with the simulation;
   * without it, a transaction that executes lands (failed or not, paying its fee) and one that cannot even
   * load (stale blockhash, bad signature, unfunded payer, duplicate) is silently dropped.
   */
  send(wire: Uint8Array, options: SendOptions = {}): SendResult {
    this.sync();
    const tx = this.parse(wire);
    const signature = addressText(tx.signatures[0] ?? new Uint8Array(64));
    if (!options.skipPreflight) {
      if (!verifySignatures(tx)) {
        throw new TransactionRejectedError('signature', 'Transaction signature verification failure');
      }
      const simulation = this.simulate(wire);
      if (simulation.err !== null) {
        throw new TransactionRejectedError('preflight', 'Transaction simulation failed', simulation);
      }
    } else if (
      !this.blockhashes.isValid(tx.recentBlockhash, this.currentSlot) ||
      this.history.processed(signature, tx.message)
    ) {
      return { signature, landed: false };
    }
    const { accountKeys, loadedAddresses } = resolveAccountKeys(tx, this.read);
    const pre = snapshotBalances(accountKeys, this.read);
    const result =
      tx.version === 0
        ? this.svm.sendVersionedTransaction(tx.bytes)
        : this.svm.sendLegacyTransaction(tx.bytes);
    this.changed();
    const failed = result instanceof FailedTransactionMetadata;
    if (failed && isLoadStageFailure(result)) return { signature, landed: false };
    const meta: TransactionMetadata = failed ? result.meta() : result;
    const post = snapshotBalances(accountKeys, this.read);
    const err = failed ? transactionErrorJson(result.err()) : null;
    const returnData = returnDataOf(meta);
    const record: TransactionRecord = {
      signature,
      slot: this.currentSlot,
      blockTime: this.clock.unixTimestamp(this.currentSlot),
      wire: new Uint8Array(wire),
      version: tx.version,
      accountKeys,
      memo: memoOf(tx),
      meta: {
        err,
        status: err === null ? { Ok: null } : { Err: err },
        fee: transactionFee(tx),
        preBalances: pre.lamports,
        postBalances: post.lamports,
        innerInstructions: innerInstructionsOf(meta),
        logMessages: meta.logs(),
        preTokenBalances: pre.tokens,
        postTokenBalances: post.tokens,
        rewards: [],
        loadedAddresses,
        computeUnitsConsumed: meta.computeUnitsConsumed(),
        ...(returnData ? { returnData } : {}),
      },
    };
    this.history.add(record);
    for (const listener of this.transactionListeners) listener(record);
    return { signature, landed: true };
  }

  /**
   * Seeding only: lands a transaction without checking its signatures, for a signer whose key the
   * sandbox cannot hold (a mainnet exchange's hot wallet paying out SOL). It executes as any other.
   */
  sendUnverified(wire: Uint8Array): SendResult {
    return this.withSigverify(false, () => this.send(wire, { skipPreflight: true }));
  }

  /** A real, signed transfer from the faucet, so airdrops show up in history as they do on devnet. */
  async airdrop(address: string, lamports: bigint): Promise<string> {
    addressBytes(address);
    const faucet = await this.faucetSigner();
    const { blockhash, lastValidBlockHeight } = this.latestBlockhash();
    const transaction = await pipe(
      createTransactionMessage({ version: 'legacy' }),
      (m) => setTransactionMessageFeePayerSigner(faucet, m),
      (m) =>
        setTransactionMessageLifetimeUsingBlockhash(
          { blockhash: blockhash as Blockhash, lastValidBlockHeight },
          m,
        ),
      (m) =>
        appendTransactionMessageInstruction(
          getTransferSolInstruction({ source: faucet, destination: address as Address, amount: lamports }),
          m,
        ),
      (m) => signTransactionMessageWithSigners(m),
    );
    const wire = new Uint8Array(getTransactionEncoder().encode(transaction));
    return this.send(wire).signature;
  }

  // --- history --------------------------------------------------------------------------------

  transaction(signature: string): TransactionRecord | undefined {
    return this.history.get(signature);
  }

  signaturesFor(address: string): readonly string[] {
    return this.history.signaturesFor(address);
  }

  get transactionCount(): number {
    return this.history.size;
  }

  /**
   * The sandbox executes with instant finality, but reports commitment as mainnet would: `confirmed` at once,
   * `finalized` after `finalityDepth` slots.
   */
  commitmentOf(record: TransactionRecord): Commitment {
    return this.sync() - record.slot >= this.finalityDepth ? 'finalized' : 'confirmed';
  }

  /** Whether a reader asking at `commitment` would see the transaction yet. */
  isVisible(record: TransactionRecord, commitment: Commitment): boolean {
    return commitment !== 'finalized' || this.commitmentOf(record) === 'finalized';
  }

  // --- snapshots (see snapshot.ts) -------------------------------------------------------------

  exportState(): ChainState {
    return {
      svm: this.svm.toBytes(),
      slot: this.sync(),
      blockhashes: this.blockhashes.toJSON(),
      history: [...this.history.records()],
      faucetSeed: this.faucetSeed,
    };
  }

  importState(state: ChainState): void {
    this.svm = LiteSvm.fromBytes(state.svm);
    this.changed();
    this.configureSvm();
    this.currentSlot = state.slot;
    this.clock.resumeAt(state.slot);
    this.blockhashes = new BlockhashWindow(state.blockhashes);
    this.history = new TransactionHistory();
    for (const record of state.history) this.history.add(record);
    this.faucetSeed = state.faucetSeed;
    this.faucet = undefined;
    this.syncSvmClock();
  }
}

function emptySimulation(
  err: TransactionErrorJson,
  loadedAddresses: LoadedAddresses,
  fee: bigint,
): SimulationResult {
  return {
    err,
    logs: [],
    unitsConsumed: 0n,
    returnData: null,
    innerInstructions: [],
    loadedAddresses,
    postAccounts: new Map(),
    replacementBlockhash: null,
    fee,
  };
}

/** Creates a chain with its faucet funded. Call `stop()` when done if `autoAdvance` is on. */
export async function createSandboxChain(options: SandboxChainOptions = {}): Promise<SandboxChain> {
  const chain = new SandboxChain(options);
  await chain.faucetReady;
  return chain;
}
