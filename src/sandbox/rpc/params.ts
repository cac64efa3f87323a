import bs58 from 'bs58';
import type { Commitment } from '../chain/chain.js';
import { invalidParam, invalidParams } from './errors.js';

export type Config = Record<string, unknown>;

/** A base58 value of `size` bytes, refused with agave's ParsePubkeyError / ParseSignatureError names. */
function base58Param(value: unknown, size: number): string {
  if (typeof value !== 'string')
    throw invalidParams(`invalid type: expected a base58 string, got ${typeOf(value)}`);
  const bytes = bs58.decodeUnsafe(value);
  if (!bytes) throw invalidParam('Invalid');
  if (bytes.length !== size) throw invalidParam('WrongSize');
  return value;
}

export function addressParam(value: unknown): string {
  return base58Param(value, 32);
}

export function signatureParam(value: unknown): string {
  return base58Param(value, 64);
}

export function stringParam(value: unknown, name: string): string {
  if (typeof value !== 'string')
    throw invalidParams(`invalid type for ${name}: expected a string, got ${typeOf(value)}`);
  return value;
}

export function integerParam(value: unknown, name: string): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'bigint' && value >= 0n) return value;
  throw invalidParams(`invalid type for ${name}: expected u64, got ${typeOf(value)}`);
}

export function arrayParam(value: unknown, name: string): unknown[] {
  if (!Array.isArray(value))
    throw invalidParams(`invalid type for ${name}: expected a sequence, got ${typeOf(value)}`);
  return value;
}

export function configParam(value: unknown): Config {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidParams(`invalid type: expected a config object, got ${typeOf(value)}`);
  }
  return value as Config;
}

const COMMITMENTS: Record<string, Commitment> = {
  processed: 'processed',
  confirmed: 'confirmed',
  finalized: 'finalized',
  // Deprecated aliases agave still accepts.
  recent: 'processed',
  single: 'confirmed',
  singleGossip: 'confirmed',
  root: 'finalized',
  max: 'finalized',
};

export function commitmentOf(config: Config, fallback: Commitment = 'finalized'): Commitment {
  const value = config.commitment;
  if (value === undefined || value === null) return fallback;
  const commitment = typeof value === 'string' ? COMMITMENTS[value] : undefined;
  if (!commitment)
    throw invalidParams(
      `unknown variant \`${String(value)}\`, expected one of \`processed\`, \`confirmed\`, \`finalized\``,
    );
  return commitment;
}

export function optionalInteger(config: Config, key: string): bigint | undefined {
  const value = config[key];
  return value === undefined || value === null ? undefined : integerParam(value, key);
}

export function optionalString(config: Config, key: string): string | undefined {
  const value = config[key];
  return value === undefined || value === null ? undefined : stringParam(value, key);
}

export function optionalBoolean(config: Config, key: string): boolean {
  const value = config[key];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean')
    throw invalidParams(`invalid type for ${key}: expected a boolean, got ${typeOf(value)}`);
  return value;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'sequence';
  return typeof value;
}
