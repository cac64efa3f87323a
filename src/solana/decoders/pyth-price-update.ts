/**
 * Pyth's pull-oracle `PriceUpdateV2` account (pyth-crosschain target_chains/solana
 * pyth_solana_receiver_sdk price_update.rs), Borsh: write_authority, verification_level (an enum:
 * Partial { num_signatures: u8 } is two bytes, Full one), then the PriceFeedMessage (feed_id,
 * price i64, conf u64, exponent i32, publish_time i64, prev_publish_time, ema_price, ema_conf) and
 * posted_slot. Owned by the Pyth Solana Receiver. The SOL/USD sponsored feed (shard 0) is kept at
 * 7UVimffx… by Pyth's push oracle (docs.pyth.network, "Sponsored Feeds on Solana").
 */
import {
  type Address,
  address,
  fixCodecSize,
  getBase16Codec,
  getConstantCodec,
  getDiscriminatedUnionCodec,
  getHiddenPrefixCodec,
  getStructCodec,
  getUnitCodec,
} from '@solana/kit';
import { hasDiscriminator } from './discriminator.js';
import { field } from './layout.js';
import { type DecodeResult, decoded, notDecoded } from './result.js';

/** sha256("account:PriceUpdateV2")[0..8]. */
export const PRICE_UPDATE_V2_DISCRIMINATOR: readonly number[] = [34, 241, 35, 99, 157, 126, 244, 205];
export const PYTH_RECEIVER_PROGRAM = address('rec5EKMGg6MxZYaMdyBfgwp4d5rB9T1VQH5pJv5LtFJ');
/** The SOL/USD price feed account (shard 0) Pyth keeps updated on mainnet. */
export const PYTH_SOL_USD_ACCOUNT = address('7UVimffxr9ow1uXYxsr4LHAcV58mLzhmwaeKvJ1pjLiE');
/** Pyth's SOL/USD feed id. */
export const PYTH_SOL_USD_FEED_ID = 'ef0d8b6fda2ceba41da15d4095d1da392a0d2f8ed0c6c7bc0f4cfac8c280b56d';
/** What Pyth allocates for a PriceUpdateV2: room for the two-byte Partial level. */
export const PRICE_UPDATE_V2_SIZE = 134;

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

/** PriceUpdateV2 in Borsh, the feed id as lowercase hex; a Full account ends one byte short of its size. */
export const PRICE_UPDATE_V2_CODEC = getHiddenPrefixCodec(
  getStructCodec([
    ['writeAuthority', field.address],
    [
      'verificationLevel',
      getDiscriminatedUnionCodec([
        ['Partial', getStructCodec([['numSignatures', field.u8]])],
        ['Full', getUnitCodec()],
      ]),
    ],
    ['feedId', fixCodecSize(getBase16Codec(), 32)],
    ['price', field.i64],
    ['conf', field.u64],
    ['exponent', field.i32],
    ['publishTime', field.i64],
    ['prevPublishTime', field.i64],
    ['emaPrice', field.i64],
    ['emaConf', field.u64],
    ['postedSlot', field.u64],
  ]),
  [getConstantCodec(Uint8Array.from(PRICE_UPDATE_V2_DISCRIMINATOR))],
);

export function decodePriceUpdateV2(data: Uint8Array, owner: Address): DecodeResult<PriceUpdate> {
  if (owner !== PYTH_RECEIVER_PROGRAM) return notDecoded('wrong-owner', `owned by ${owner}`);
  if (!hasDiscriminator(data, PRICE_UPDATE_V2_DISCRIMINATOR))
    return notDecoded('wrong-kind', 'discriminator is not PriceUpdateV2');
  const level = data[40];
  if (level !== 0 && level !== 1) return notDecoded('malformed', `verification level ${level}`);
  const at = level === 0 ? 42 : 41;
  if (data.length < at + MESSAGE_SIZE + 8) return notDecoded('truncated', `${data.length} bytes`);
  const update = PRICE_UPDATE_V2_CODEC.decode(data);
  return decoded({
    feedId: update.feedId,
    fullyVerified: update.verificationLevel.__kind === 'Full',
    price: update.price,
    conf: update.conf,
    exponent: update.exponent,
    publishTime: update.publishTime,
    postedSlot: update.postedSlot,
  });
}
