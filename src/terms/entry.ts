/**
 * What a catalog entry says about a paid endpoint: how it is called, what input it reads, what
 * it answers, how it is priced and who produces what it sells. The types only; the table is
 * src/catalog.ts.
 */
import type { z } from 'zod';
import type { PriceRule } from './price.js';
import type { ParamKind, SubjectKind } from './subjects.js';

/**
 * Who makes what an endpoint sells. The service maps each to an implementation, so no code asks
 * which endpoint a call is for to know what to produce.
 */
export type Producer = 'scan' | 'watch' | 'batch';

/** What a call does beyond answering, as MCP hosts are told (the tool's annotations). */
export interface Effects {
  /** Changes nothing anywhere. */
  readonly readOnly: boolean;
  /** The same call again has no further effect. */
  readonly idempotent: boolean;
  /** May destroy something already there. */
  readonly destructive: boolean;
  /** Reaches outside the service (the chain, a webhook). */
  readonly openWorld: boolean;
}

/** What each producer's sale does: derived from what is sold, never set per endpoint. */
export const EFFECTS: Readonly<Record<Producer, Effects>> = {
  // A scan reads the chain and keeps nothing: asking again only asks again.
  scan: { readOnly: true, idempotent: true, destructive: false, openWorld: true },
  // A watch is created, kept for hours and posts to a webhook: each call buys another one.
  watch: { readOnly: false, idempotent: false, destructive: false, openWorld: true },
  // A batch is many scans in one answer: it reads as they read, and keeps nothing.
  batch: { readOnly: true, idempotent: true, destructive: false, openWorld: true },
};

/** How a POST body is read once its JSON matches the schema: which reader names its purchase. */
export type BodyReader = 'transaction' | 'watch-order' | 'batch-order';

/** A JSON body's JSON Schema (2020-12), generated from its zod schema: what OpenAPI, Bazaar and MCP tools show. */
export interface BodySchema {
  readonly type: 'object';
  readonly description: string;
  readonly properties: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly required: readonly string[];
  readonly additionalProperties: false;
}

/** What a JSON body must hold: its zod schema, the JSON Schema generated from it, an example. */
export interface BodyInput {
  /** What a 400 about the body as a whole names as the parameter at fault. */
  readonly field: string;
  /** Most bytes of HTTP body taken. */
  readonly maxBodyBytes: number;
  /** The body's shape: what accepts it, and what its JSON Schema is generated from. */
  readonly input: z.ZodObject;
  readonly schema: BodySchema;
  readonly example: Readonly<Record<string, string | number | readonly string[]>>;
  readonly reads: BodyReader;
}

/** A body whose one field is a base64 wire transaction (`field`, at most `maxDecodedBytes`). */
export interface TransactionBodyInput extends BodyInput {
  /** Most bytes the field may decode to. */
  readonly maxDecodedBytes: number;
}

export interface EndpointFacts {
  /** Stable id: a scan's id is its scanner's folder (`scans/<id>/`), the watches' is `watch`. */
  readonly id: string;
  /** OpenAPI operationId. */
  readonly operationId: string;
  /** The MCP tool's name, when not derived from the path. */
  readonly tool?: string;
  /** How long a result may be served from the cache. */
  readonly cacheTtlSeconds: number;
  readonly summary: string;
  readonly description: string;
  /** What the scan looks at, for discovery documents. */
  readonly assesses: readonly string[];
  readonly price: PriceRule;
  readonly producer: Producer;
  /** The 200 answer's body. */
  readonly response: z.ZodType;
  /** Set when a purchase may find no room (503 before payment): what that 503 means. */
  readonly noRoom?: string;
}

/** The contract's shape (interface.md §4.1): a GET whose subject is its one path parameter. */
export type GetEndpoint = EndpointFacts & {
  readonly id: SubjectKind;
  readonly method: 'GET';
  readonly price: Extract<PriceRule, { per: 'call' }>;
  readonly producer: 'scan';
  /** OpenAPI-style path with one `{param}`. */
  readonly path: string;
  readonly param: {
    readonly name: string;
    readonly kind: ParamKind;
    readonly description: string;
    readonly example: string;
    /** The parameter's zod schema: what OpenAPI states (admission refuses in paramReason's words, which it calls). */
    readonly input: z.ZodType;
  };
};

/** Our own addition beside the contract's GETs: a POST whose subject is its JSON body. */
export type PostEndpoint = EndpointFacts & {
  readonly method: 'POST';
  /** The path, without parameters. */
  readonly path: string;
  readonly body: BodyInput | TransactionBodyInput;
};

export type PaidEndpoint = GetEndpoint | PostEndpoint;
