/** The service's answers, typed: the contract's ScanResult, its flag codes and its decision. */
import type { BatchKind } from './catalog.js';
import { DECISIONS as DECISION_LIST, type FLAG_CODES } from './generated/catalog.js';

/** Every flag code the service may raise (generated from its flag catalogs). */
export type FlagCode = (typeof FLAG_CODES)[number];

/** The bucket the recommendation is worded from, mildest first (`evidence.decision`). */
export type Decision = (typeof DECISION_LIST)[number];

export const DECISIONS: readonly Decision[] = DECISION_LIST;

/** The contract's ScanResult. */
export interface ScanResult {
  /** 0 (no risk) to 1. */
  readonly risk_score: number;
  readonly flags: FlagCode[];
  /** 0 to 1: lower when data could not be read (a *_UNAVAILABLE flag). */
  readonly confidence: number;
  readonly summary: string;
  readonly recommendation: string;
  readonly reasoning: string[];
  readonly evidence?: { readonly decision?: Decision; readonly [k: string]: unknown };
  readonly cached?: boolean;
  readonly cached_at?: string;
  readonly version?: string;
  readonly request_id?: string;
}

/**
 * The answer of POST /scan/batch (`scanBatch`): `results[i]` answers `subjects[i]` of the order,
 * a repeated subject repeating its first answer; signed whole, as every paid answer is.
 */
export interface BatchResult {
  readonly kind: BatchKind;
  /** How many subjects were sent (repeats counted). */
  readonly subjects: number;
  /** How many were scanned and paid for: the distinct subjects. */
  readonly charged_items: number;
  /** This request's id; each result carries it too. */
  readonly request_id: string;
  readonly results: ScanResult[];
}

/** A result the client paid for, with what it paid and the settlement's transaction. */
export interface Paid<T> {
  readonly result: T;
  /** USDC paid for this result: the 402's price, at most the catalog's. */
  readonly paidUsd: number;
  /** The settlement transaction's signature, from the PAYMENT-RESPONSE receipt. */
  readonly transaction: string | null;
  readonly network: string;
}
