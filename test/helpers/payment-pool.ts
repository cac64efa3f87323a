/**
 * Many payments signed ahead of a load run, each usable once: real x402 v2 payments built by
 * the official @x402/svm client scheme (one instance per payer, so the mint is read once),
 * spread over several funded payers. Each carries its key (the hash of its signed message,
 * as the service and the chain's history see it), so what landed on chain can be matched to
 * the request that presented it.
 */
import { type Address, getBase64Encoder, getTransactionDecoder, type KeyPairSigner } from '@solana/kit';
import type { PaymentRequirements } from '@x402/core/types';
import { ExactSvmScheme } from '@x402/svm';
import type { SandboxChain } from '../../src/sandbox/chain/chain.js';
import { usdcAccountOf } from '../../src/sandbox/usdc.js';
import { paymentKey } from '../../src/x402/payment-transaction.js';
import { encodeHeader } from './payments.js';

export interface PooledPayment {
  /** The path it is meant for (the service binds a payment to the first path it buys). */
  readonly path: string;
  /** The PAYMENT-SIGNATURE header. */
  readonly header: string;
  /** The hash of its signed message: the service's payment key, and the chain's. */
  readonly key: string;
}

/** The key of a base64 wire transaction: what the fee payer's signature does not change. */
export function keyOfWire(wire: Uint8Array): string {
  return paymentKey(new Uint8Array(getTransactionDecoder().decode(wire).messageBytes));
}

const keyOfBase64 = (transaction: string) =>
  keyOfWire(new Uint8Array(getBase64Encoder().encode(transaction)));

/**
 * One payment per entry of `paths`, for `requirements` (an offer's `accepted`; the same for
 * every subject of an endpoint), payers taken in turn, `concurrency` built at a time.
 */
export async function buildPayments(options: {
  readonly payers: readonly KeyPairSigner[];
  readonly rpcUrl: string;
  readonly requirements: PaymentRequirements;
  /** Prefixed to each path in the payment's `resource.url`. */
  readonly resourceBase: string;
  readonly paths: readonly string[];
  readonly concurrency?: number;
}): Promise<PooledPayment[]> {
  const schemes = options.payers.map((p) => new ExactSvmScheme(p, { rpcUrl: options.rpcUrl }));
  const built: PooledPayment[] = new Array(options.paths.length);
  let next = 0;
  const worker = async () => {
    while (next < options.paths.length) {
      const i = next++;
      const path = options.paths[i]!;
      const made = await schemes[i % schemes.length]!.createPaymentPayload(2, options.requirements);
      const transaction = (made.payload as { transaction: string }).transaction;
      const header = encodeHeader({
        x402Version: 2,
        payload: made.payload,
        accepted: options.requirements,
        resource: { url: options.resourceBase + path },
      });
      built[i] = { path, header, key: keyOfBase64(transaction) };
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 16 }, worker));
  return built;
}

/** Every successful transaction into `owner`'s USDC account, by payment key → signature. */
export async function settledOnChain(chain: SandboxChain, owner: Address): Promise<Map<string, string>> {
  const settled = new Map<string, string>();
  for (const signature of chain.signaturesFor(await usdcAccountOf(owner))) {
    const record = chain.transaction(signature);
    if (record === undefined || record.meta.err !== null) continue;
    settled.set(keyOfWire(record.wire), signature);
  }
  return settled;
}
