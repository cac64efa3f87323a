/** Anchor accounts start with sha256("account:<Name>")[0..8]; decoders check it before anything else. */
export function hasDiscriminator(data: Uint8Array, discriminator: readonly number[]): boolean {
  return data.length >= discriminator.length && discriminator.every((byte, index) => data[index] === byte);
}
