import type { WebSocket } from 'ws';
import { errorMessage } from '../../errors.js';
import { SYSTEM_PROGRAM } from '../chain/addresses.js';
import type { SandboxChain } from '../chain/chain.js';
import { accountEncodingOf, encodeAccount } from './encoding.js';
import { RpcError, RpcErrorCode } from './errors.js';
import { stringifyRpc } from './json.js';
import { addressParam, commitmentOf, configParam, signatureParam } from './params.js';

type Unsubscribe = () => void;

interface SubscriptionRequest {
  id: string | number | null;
  method: string;
  params: unknown[];
}

const UNSUBSCRIBE_METHODS: Record<string, string> = {
  signatureUnsubscribe: 'signature',
  slotUnsubscribe: 'slot',
  accountUnsubscribe: 'account',
};

let nextSubscriptionId = 0;

/**
 * One WebSocket client's subscriptions. Notifications follow agave's pubsub: a signature subscription fires
 * once, when the transaction reaches the requested commitment, and is then removed.
 */
export class SubscriptionSession {
  private readonly active = new Map<number, { kind: string; stop: Unsubscribe }>();

  constructor(
    private readonly chain: SandboxChain,
    private readonly socket: WebSocket,
  ) {}

  handle(raw: string): void {
    let request: SubscriptionRequest;
    try {
      const parsed = JSON.parse(raw) as Record<string, unknown>;
      request = {
        id: (parsed.id as SubscriptionRequest['id']) ?? null,
        method: String(parsed.method),
        params: Array.isArray(parsed.params) ? parsed.params : [],
      };
    } catch {
      this.send({
        jsonrpc: '2.0',
        id: null,
        error: { code: RpcErrorCode.ParseError, message: 'Parse error' },
      });
      return;
    }
    try {
      this.send({ jsonrpc: '2.0', id: request.id, result: this.dispatch(request) });
    } catch (error) {
      const rpc =
        error instanceof RpcError ? error : new RpcError(RpcErrorCode.InternalError, errorMessage(error));
      this.send({ jsonrpc: '2.0', id: request.id, error: { code: rpc.code, message: rpc.message } });
    }
  }

  close(): void {
    for (const { stop } of this.active.values()) stop();
    this.active.clear();
  }

  private dispatch({ method, params }: SubscriptionRequest): unknown {
    this.chain.sync();
    switch (method) {
      case 'slotSubscribe':
        return this.subscribeSlots();
      case 'signatureSubscribe':
        return this.subscribeSignature(params);
      case 'accountSubscribe':
        return this.subscribeAccount(params);
    }
    const kind = UNSUBSCRIBE_METHODS[method];
    if (!kind) throw new RpcError(RpcErrorCode.MethodNotFound, 'Method not found');
    const id = params[0];
    const entry = typeof id === 'number' ? this.active.get(id) : undefined;
    if (!entry || entry.kind !== kind)
      throw new RpcError(RpcErrorCode.InvalidParams, 'Invalid subscription id.');
    entry.stop();
    this.active.delete(id as number);
    return true;
  }

  private register(kind: string, start: (id: number) => Unsubscribe): number {
    const id = nextSubscriptionId++;
    // Registered before `start` runs, so a notification fired synchronously can still remove itself.
    const entry = { kind, stop: () => {} };
    this.active.set(id, entry);
    entry.stop = start(id);
    return id;
  }

  private subscribeSlots(): number {
    return this.register('slot', (id) =>
      this.chain.onSlot((event) => this.notify('slotNotification', id, event)),
    );
  }

  private subscribeSignature([signature, config]: unknown[]): number {
    const key = signatureParam(signature);
    const commitment = commitmentOf(configParam(config));
    return this.register('signature', (id) => {
      let done = false;
      const check = (): void => {
        const record = this.chain.transaction(key);
        if (done || !record || !this.chain.isVisible(record, commitment)) return;
        done = true;
        this.notify('signatureNotification', id, {
          context: { slot: record.slot },
          value: { err: record.meta.err },
        });
        stop();
        this.active.delete(id);
      };
      const offTransaction = this.chain.onTransaction((record) => {
        if (record.signature === key) check();
      });
      // Finalization happens on later slots, not at the transaction itself.
      const offSlot = commitment === 'finalized' ? this.chain.onSlot(check) : () => {};
      const stop = (): void => {
        offTransaction();
        offSlot();
      };
      // A transaction that already landed is reported right after the subscription id goes out.
      setImmediate(check);
      return stop;
    });
  }

  private subscribeAccount([address, config]: unknown[]): number {
    const key = addressParam(address);
    const options = configParam(config);
    commitmentOf(options);
    const encoding = accountEncodingOf(options, 'binary');
    let last = this.fingerprint(key);
    return this.register('account', (id) =>
      this.chain.onTransaction((record) => {
        if (!record.accountKeys.includes(key)) return;
        const current = this.fingerprint(key);
        if (current === last) return;
        last = current;
        const account = this.chain.getAccount(key);
        const value = account
          ? encodeAccount(account, encoding, this.chain)
          : {
              lamports: 0n,
              owner: SYSTEM_PROGRAM,
              data: ['', 'base64'],
              executable: false,
              rentEpoch: 0n,
              space: 0,
            };
        this.notify('accountNotification', id, { context: { slot: record.slot }, value });
      }),
    );
  }

  private fingerprint(address: string): string {
    const account = this.chain.getAccount(address);
    if (!account) return '';
    return `${account.lamports()}:${Buffer.from(account.owner()).toString('hex')}:${Buffer.from(account.data()).toString('base64')}`;
  }

  private notify(method: string, subscription: number, result: unknown): void {
    this.send({ jsonrpc: '2.0', method, params: { result, subscription } });
  }

  private send(message: unknown): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(stringifyRpc(message));
  }
}
