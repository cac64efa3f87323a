/**
 * Wire shapes, written once with zod: runtime validation, TypeScript types and the
 * OpenAPI 3.1 document all come from these schemas.
 */
import { z } from '@hono/zod-openapi';
import { type Reason, reason } from '../reasons.js';
import { base58Problem } from '../solana/base58.js';
import type { ParamKind } from '../terms/subjects.js';

export const PARAM_BYTES: Record<ParamKind, number> = { address: 32, signature: 64 };

const PARAM_TEXT: Record<ParamKind, string> = {
  address: 'a base58 Solana address (32 bytes)',
  signature: 'a base58 transaction signature (64 bytes)',
};

/** Why a subject's text is not one (`name` is how the reason names it: `mint`), or null when it is. */
export function paramReason(
  name: string,
  kind: ParamKind,
  value: string,
): Reason<'base58_empty' | 'base58_alphabet' | 'base58_length'> | null {
  const bytes = PARAM_BYTES[kind];
  const problem = base58Problem(value, bytes);
  if (problem === null) return null;
  const what = PARAM_TEXT[kind];
  if (problem === 'empty') return reason('base58_empty', { name, what });
  if (problem === 'alphabet') return reason('base58_alphabet', { name, what });
  return reason('base58_length', { name, what, bytes });
}

/** The shape a path parameter's text must have, as JSON Schema states it (OpenAPI, MCP tools). */
export function paramTextHints(kind: ParamKind) {
  return {
    pattern: '^[1-9A-HJ-NP-Za-km-z]+$',
    minLength: kind === 'address' ? 32 : 64,
    maxLength: kind === 'address' ? 44 : 88,
  } as const;
}

export function paramSchema(kind: ParamKind, description: string, example: string) {
  const bytes = PARAM_BYTES[kind];
  const hints = paramTextHints(kind);
  return z
    .string()
    .regex(new RegExp(hints.pattern))
    .min(hints.minLength)
    .max(hints.maxLength)
    .refine((v) => paramReason('', kind, v) === null, { message: `must decode to ${bytes} bytes` })
    .openapi({ description, example });
}

const unit = z.number().min(0).max(1);

export const ScanResultSchema = z
  .object({
    risk_score: unit.openapi({ description: '0 = no risk, 1 = maximum risk.', example: 0.12 }),
    flags: z
      .array(z.string())
      .openapi({ description: 'Machine-readable risk codes.', example: ['MINT_AUTHORITY_ACTIVE'] }),
    confidence: unit.openapi({
      description: 'How complete the data behind the score was; drops when data was missing.',
      example: 0.95,
    }),
    summary: z.string().openapi({ description: 'One plain-English sentence.' }),
    recommendation: z.string().openapi({ description: 'Plain-English recommended action.' }),
    reasoning: z
      .array(z.string())
      .openapi({ description: 'Why the score is what it is, one line per point.' }),
    evidence: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: 'Raw on-chain values behind each flag.' }),
    cached: z.boolean().optional().openapi({ description: 'True when served from the cache.' }),
    cached_at: z.iso.datetime().optional().openapi({ description: 'When a cached result was produced.' }),
    version: z.string().optional().openapi({ description: 'Version label of the result.' }),
    request_id: z.uuid().optional().openapi({ description: 'Identifier of this request.' }),
  })
  .openapi('ScanResult');
export type ScanResult = z.infer<typeof ScanResultSchema>;

export const PaymentOptionSchema = z
  .object({
    scheme: z.literal('exact'),
    network: z.string(),
    maxAmountRequired: z.string(),
    resource: z.string(),
    description: z.string(),
    mimeType: z.string(),
    payTo: z.string(),
    asset: z.string(),
    maxTimeoutSeconds: z.number().int(),
    outputSchema: z.record(z.string(), z.unknown()).optional(),
    extra: z.record(z.string(), z.unknown()).optional(),
  })
  .partial()
  .openapi('PaymentOption');
export type PaymentOption = z.infer<typeof PaymentOptionSchema>;

export const PaymentRequiredSchema = z
  .object({
    // An integer (§2.2), which a literal alone would describe as a number.
    x402Version: z.literal(1).openapi({ type: 'integer', enum: [1] }),
    accepts: z.array(PaymentOptionSchema),
    error: z.string().optional().openapi({ description: 'Why payment is required or was refused.' }),
  })
  .openapi('PaymentRequired');
export type PaymentRequired = z.infer<typeof PaymentRequiredSchema>;

export const ErrorBodySchema = z
  .object({
    error: z.string().openapi({ description: 'Machine-readable error code.', example: 'invalid_input' }),
    message: z.string().openapi({ description: 'What went wrong, for a person.' }),
    parameter: z.string().optional().openapi({ description: 'The offending parameter (400 only).' }),
    request_id: z.string().optional(),
  })
  .openapi('Error');
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
