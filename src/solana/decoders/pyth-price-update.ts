/**
 * Pyth's pull-oracle `PriceUpdateV2` account (pyth-crosschain target_chains/solana
 * pyth_solana_receiver_sdk price_update.rs), Borsh: write_authority, verification_level (an enum:
 * Partial { num_signatures: u8 } is two bytes, Full one), then the PriceFeedMessage (feed_id,
 * price i64, conf u64, exponent i32, publish_time i64, prev_publish_time, ema_price, ema_conf) and
 * posted_slot. Owned by the Pyth Solana Receiver. The SOL/USD sponsored feed (shard 0) is kept at
 * 7UVimffx… by Pyth's push oracle (docs.pyth.network, "Sponsored Feeds on Solana").
 */
import { type Address, address } from '@solana/kit';
import { hasDiscriminator } from './discriminator.js';
import { type DecodeResult, decoded, notDecoded } from './result.js';

/** sha256("account:PriceUpdateV2")[0..8]. */
export const PRICE_UPDATE_V2_DISCRIMINATOR: readonly number[] = [34, 241, 35, 99, 157, 126, 244, 205];
export const PYTH_RECEIVER_PROGRAM = address('rec5EKMGg6MxZYaMdyBfgwp4d5rB9T1VQH5pJv5LtFJ');
/** The SOL/USD price feed account (shard 0) Pyth keeps updated on mainnet. */
export const PYTH_SOL_USD_ACCOUNT = address('7UVimffxr9ow1uXYxsr4LHAcV58mLzhmwaeKvJ1pjLiE');
/** Pyth's SOL/USD feed id. */
export const PYTH_SOL_USD_FEED_ID = 'ef0d8b6fda2ceba41da15d4095d1da392a0d2f8ed0c6c7bc0f4cfac8c280b56d';

export interface PriceUpdate {
  readonly feedId: string;
  readonly fullyVerified: boolean;
  readonly price: bigint;
  readonly conf: bigint;
  readonly exponent: number;
  readonly publishTime: bigint;
  readonly postedSlot: bigint;
}

const MESSAGE_SIZE = 84;
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

export function decodePriceUpdateV2(data: Uint8Array, owner: Address): DecodeResult<PriceUpdate> {
  if (owner !== PYTH_RECEIVER_PROGRAM) return notDecoded('wrong-owner', `owned by ${owner}`);
  if (!hasDiscriminator(data, PRICE_UPDATE_V2_DISCRIMINATOR))
    return notDecoded('wrong-kind', 'discriminator is not PriceUpdateV2');
  const level = data[40];
  if (level !== 0 && level !== 1) return notDecoded('malformed', `verification level ${level}`);
  const at = level === 0 ? 42 : 41;
  if (data.length < at + MESSAGE_SIZE + 8) return notDecoded('truncated', `${data.length} bytes`);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return decoded({
    feedId: hex(data.subarray(at, at + 32)),
    fullyVerified: level === 1,
    price: view.getBigInt64(at + 32, true),
    conf: view.getBigUint64(at + 40, true),
    exponent: view.getInt32(at + 48, true),
    publishTime: view.getBigInt64(at + 52, true),
    postedSlot: view.getBigUint64(at + MESSAGE_SIZE, true),
  });
}
