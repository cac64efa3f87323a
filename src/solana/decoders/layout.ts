/**
 * An account layout written once, as a `@solana/kit` codec: the decoders `decode` it and the
 * sandbox's scenario builders `encode` it, so an offset cannot drift between reader and writer.
 *
 * The DEX and locker programs keep fixed-size (packed or zero-copy) structs of which the scans read
 * a few fields, so a layout lists the fields it names at their offsets in the account; the bytes
 * between them are skipped when decoding and zero when encoding, as the sandbox always wrote them.
 */
import {
  type FixedSizeCodec,
  getAddressCodec,
  getBooleanCodec,
  getConstantCodec,
  getHiddenPrefixCodec,
  getI32Codec,
  getI64Codec,
  getI128Codec,
  getStructCodec,
  getU8Codec,
  getU16Codec,
  getU32Codec,
  getU64Codec,
  getU128Codec,
  padLeftCodec,
  padRightCodec,
} from '@solana/kit';

/** The little-endian field codecs the layouts are made of, made once for every decoder. */
export const field = {
  address: getAddressCodec(),
  bool: getBooleanCodec(),
  u8: getU8Codec(),
  u16: getU16Codec(),
  u32: getU32Codec(),
  i32: getI32Codec(),
  u64: getU64Codec(),
  i64: getI64Codec(),
  u128: getU128Codec(),
  i128: getI128Codec(),
} as const;

// biome-ignore lint/suspicious/noExplicitAny: a field's codec may be of any type, as in kit's own getStructCodec.
type AnyFixedCodec = FixedSizeCodec<any, any>;
type AnyField = readonly [offset: number, codec: AnyFixedCodec];
type FieldsOf = Record<string, AnyField>;
/** What encoding takes (a u64 takes a number or a bigint) and what decoding gives (a bigint). */
export type LayoutInput<F extends FieldsOf> = {
  [K in keyof F]: F[K][1] extends FixedSizeCodec<infer From, infer _To> ? From : never;
};
export type LayoutOutput<F extends FieldsOf> = {
  [K in keyof F]: F[K][1] extends FixedSizeCodec<infer _From, infer To> ? To : never;
};

/** A layout's codec, carrying its field table so one field can be rewritten in place. */
export type Layout<F extends FieldsOf> = FixedSizeCodec<LayoutInput<F>, LayoutOutput<F>> & {
  readonly fields: F;
};

/**
 * A codec of `size` bytes with each field at its offset (offsets count from the account's first
 * byte, the discriminator included). Overlapping fields or a field past `size` throw at load: that
 * is a layout typo, not an account to refuse.
 */
export function layoutCodec<const F extends FieldsOf>(
  size: number,
  discriminator: readonly number[] | null,
  fields: F,
): Layout<F> {
  const start = discriminator?.length ?? 0;
  let cursor = start;
  const placed: [string, AnyFixedCodec][] = [];
  for (const [name, [offset, codec]] of Object.entries(fields).sort(([, a], [, b]) => a[0] - b[0])) {
    if (offset < cursor) throw new RangeError(`layout field ${name} at ${offset} overlaps the one before`);
    placed.push([name, padLeftCodec(codec, offset - cursor)]);
    cursor = offset + codec.fixedSize;
  }
  if (cursor > size) throw new RangeError(`layout fields end at ${cursor}, past its ${size} bytes`);
  const body = padRightCodec(getStructCodec(placed), size - cursor);
  const codec = discriminator
    ? getHiddenPrefixCodec(body, [getConstantCodec(Uint8Array.from(discriminator))])
    : body;
  return Object.assign(codec as unknown as FixedSizeCodec<LayoutInput<F>, LayoutOutput<F>>, { fields });
}

/**
 * Reads one field of `layout` from an account's bytes (`base`: where the layout starts, for one
 * element of an array of them): for reading a few fields of a large account without all of it.
 */
export function readLayoutField<F extends FieldsOf, K extends keyof F & string>(
  layout: Layout<F>,
  name: K,
  data: Uint8Array,
  base = 0,
): LayoutOutput<F>[K] {
  const [offset, codec] = layout.fields[name] as AnyField;
  return codec.decode(data, base + offset);
}

/**
 * Writes one field of `layout` into an account's bytes, leaving every other byte as it was (encoding
 * the whole layout would zero the bytes it does not name): a program's update of one field.
 */
export function writeLayoutField<F extends FieldsOf, K extends keyof F & string>(
  layout: Layout<F>,
  name: K,
  value: LayoutInput<F>[K],
  data: Uint8Array,
): void {
  const [offset, codec] = layout.fields[name] as AnyField;
  codec.write(value, data, offset);
}
