/**
 * A tolerant walk over the Token-2022 extension area (TLV entries after the account-type byte).
 *
 * Why not `getMintDecoder()` / `getTokenDecoder()` of @solana-program/token-2022 for the whole
 * account: they decode the extensions as one discriminated union, which throws on a type number
 * the package does not know (0.15 knows 0–28) and so would turn a mint with a newer extension
 * into "not a mint". Here each entry is cut out by its own length and handed to the package's
 * `getExtensionDecoder()` alone, so known kinds get the package's codecs and unknown kinds are kept
 * by number. test/solana/mint.test.ts checks that both paths agree on every real fixture.
 */
import { type Extension, ExtensionType, getExtensionDecoder } from '@solana-program/token-2022';
import { ACCOUNT_TYPE_OFFSET } from './token-program.js';

const TLV_START = ACCOUNT_TYPE_OFFSET + 1;
const TLV_HEADER_SIZE = 4;

export interface ExtensionEntry {
  /** The TLV type number as stored on chain. */
  readonly type: number;
  /** The ExtensionType name, or null for a type this package version does not know. */
  readonly name: string | null;
  /** Length of the entry's value in bytes. */
  readonly length: number;
}

export interface TlvScan {
  /** Every entry in account order. */
  readonly entries: readonly ExtensionEntry[];
  /** The decoded values of the entries whose kind is known and whose bytes decoded. */
  readonly decoded: readonly Extension[];
  /** Type numbers of known kinds whose value did not decode (wrong length for the kind). */
  readonly undecodable: readonly number[];
  /** False when an entry's header or value ran past the end of the data. */
  readonly complete: boolean;
}

const extensionDecoder = getExtensionDecoder();

function extensionName(type: number): string | null {
  if (type === ExtensionType.Uninitialized) return null;
  const name: unknown = ExtensionType[type];
  return typeof name === 'string' ? name : null;
}

/** Walks the TLV area of an extended Token-2022 account (`data.length > 165`). Never throws. */
export function scanExtensions(data: Uint8Array): TlvScan {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const entries: ExtensionEntry[] = [];
  const decoded: Extension[] = [];
  const undecodable: number[] = [];
  let offset = TLV_START;
  let complete = true;
  while (offset + TLV_HEADER_SIZE <= data.length) {
    const type = view.getUint16(offset, true);
    const length = view.getUint16(offset + 2, true);
    // The program stops at the first Uninitialized entry: the rest is unused space.
    if (type === ExtensionType.Uninitialized) break;
    const end = offset + TLV_HEADER_SIZE + length;
    if (end > data.length) {
      complete = false;
      break;
    }
    const name = extensionName(type);
    entries.push({ type, name, length });
    if (name !== null) {
      try {
        decoded.push(extensionDecoder.decode(data.subarray(offset, end)));
      } catch {
        undecodable.push(type);
      }
    }
    offset = end;
  }
  // A tail shorter than a header is padding (Token-2022 adds 2 zero bytes to dodge MULTISIG_SIZE);
  // anything non-zero there is a cut-off entry.
  if (offset + TLV_HEADER_SIZE > data.length && data.subarray(offset).some((byte) => byte !== 0)) {
    complete = false;
  }
  return { entries, decoded, undecodable, complete };
}
