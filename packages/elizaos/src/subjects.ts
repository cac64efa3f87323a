/**
 * The subject of a scan, read from the message's text without a model: the first Solana address,
 * transaction signature or base64 wire transaction it holds.
 */
import { getBase58Encoder, getBase64Encoder, getTransactionDecoder, isAddress } from '@solana/kit';

const BASE58_WORDS = /\b[1-9A-HJ-NP-Za-km-z]{32,88}\b/g;
const BASE64_RUNS = /[A-Za-z0-9+/]{60,}={0,2}/g;

const words = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m[0]);

function decodesTo(word: string, length: number): boolean {
  try {
    return getBase58Encoder().encode(word).length === length;
  } catch {
    return false;
  }
}

function isWireTransaction(word: string): boolean {
  try {
    getTransactionDecoder().decode(getBase64Encoder().encode(word));
    return true;
  } catch {
    return false;
  }
}

export const firstAddress = (text: string) => words(text, BASE58_WORDS).find((w) => isAddress(w));

export const firstSignature = (text: string) =>
  words(text, BASE58_WORDS).find((w) => w.length >= 64 && decodesTo(w, 64));

export const firstTransaction = (text: string) => words(text, BASE64_RUNS).find(isWireTransaction);
