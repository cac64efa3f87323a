/**
 * The JSON bodies the POST endpoints take, written once with zod: what accepts a watch order is
 * this schema, and the JSON Schema OpenAPI, Bazaar and the MCP tools show is generated from it.
 */
import { z } from 'zod';
import type { BodySchema } from './entry.js';
import { BATCH_KINDS, WATCH_KINDS } from './subjects.js';

/** Legacy and v0 transactions share this wire limit (the packet size, 1232 bytes). */
export const MAX_TRANSACTION_BYTES = 1232;
/** A watch lasts at most a week: long enough for a position, short enough to be re-bought knowingly. */
export const MAX_WATCH_HOURS = 168;

/** A batch holds 1 to 25 subjects: one payment, one signed answer, within one scan's deadline. */
export const MAX_BATCH_SUBJECTS = 25;

const BASE58_ADDRESS_PATTERN = '^[1-9A-HJ-NP-Za-km-z]{32,44}$';

/**
 * The documented example body of /simulate/tx: an unsigned legacy USDC transferChecked of 1 USDC
 * between two associated token accounts (regenerate with `npx tsx scripts/simulate-example.ts`).
 */
export const SIMULATE_EXAMPLE_TX =
  'AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABAAIFfowIh2C/3h3dzzLBfyCbgkLuUqrxMfrNiNDqLG0LBvLT6oz1rKyozQUgdRIXXEPO9Upd2Z7eIKFrVSU3OPOX3PdB78uRI342SpqA+TVsD/f4o3WfVFRxtym9Ukb3B08dxvp6877brTo9ZfNqq8l0MbG75MLS9uDkfKYCA0UvXWEG3fbh12Whk9nL4UbO63msHLSF7V9bN5E6jPWFfv8AqQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQQEAQMCAAoMQEIPAAAAAAAG';

export const SimulateBodySchema = z
  .strictObject({
    transaction: z
      .string()
      // base64 of 1232 bytes is 1644 characters.
      .max(1644)
      .meta({
        contentEncoding: 'base64',
        description:
          'Base64 of the wire transaction (legacy or v0, signed or not; at most 1232 bytes). Address lookup tables are resolved; the blockhash is replaced, signatures are not checked.',
        examples: [SIMULATE_EXAMPLE_TX],
      }),
  })
  .meta({ description: 'The transaction to simulate, as a wallet would be asked to sign it.' });

export const WatchOrderSchema = z
  .strictObject({
    kind: z.enum(WATCH_KINDS).meta({
      description: 'What the subject is: the GET scan of that kind gives the verdict watched.',
    }),
    subject: z
      .string()
      .regex(new RegExp(BASE58_ADDRESS_PATTERN))
      .meta({
        description: 'Base58 address of the subject (a mint, a wallet or a program id).',
        examples: ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'],
      }),
    webhook: z
      .url()
      .max(2048)
      .meta({
        description:
          'https URL alerts are POSTed to (Standard Webhooks). It must resolve to a public address.',
        examples: ['https://example.com/hooks/risk-scan'],
      }),
    hours: z
      .int()
      .min(1)
      .max(MAX_WATCH_HOURS)
      .meta({
        description: `How long to watch, in hours (1 to ${MAX_WATCH_HOURS}).`,
        examples: [24],
      }),
  })
  .meta({
    description:
      'What to watch, where to send alerts and for how long. The price is hours × the price per hour.',
  });

export const BatchOrderSchema = z
  .strictObject({
    kind: z.enum(BATCH_KINDS).meta({
      description: 'What every subject is: each is scanned as the GET scan of that kind scans it.',
    }),
    subjects: z
      .array(z.string().regex(new RegExp(BASE58_ADDRESS_PATTERN)))
      .min(1)
      .max(MAX_BATCH_SUBJECTS)
      .meta({
        description: `1 to ${MAX_BATCH_SUBJECTS} base58 addresses (mints or wallets). A repeated address is scanned and charged once; its answer is repeated at each place it holds.`,
        examples: [['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v']],
      }),
  })
  .meta({
    description:
      "The subjects to scan, all of one kind. The price is the sum over distinct subjects of the kind's single scan price, less the operator's discount if any.",
  });

/** What a batch payer asks for: the body of `POST /scan/batch`, validated. */
export type BatchOrder = z.infer<typeof BatchOrderSchema>;

/** What a payer asks for: the body of `POST /watch`, validated. */
export type WatchOrder = z.infer<typeof WatchOrderSchema>;

/** A body's JSON Schema as documents publish it (without `$schema`: it sits inside other documents). */
export function bodySchemaOf(input: z.ZodObject): BodySchema {
  const { $schema: _, ...schema } = z.toJSONSchema(input);
  return schema as unknown as BodySchema;
}
