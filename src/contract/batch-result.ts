/**
 * The 200 answer of POST /scan/batch, as the catalog names it for its response: one ScanResult
 * per subject, in the order the subjects were sent (results[i] answers subjects[i]; a repeated
 * subject repeats its first answer), and what the payment covered. Signed whole, as every paid
 * body is (X-Signature).
 */
import { z } from '@hono/zod-openapi';
import { BATCH_KINDS } from '../terms/subjects.js';
import { ScanResultSchema } from './schemas.js';

export const BatchResultSchema = z
  .object({
    kind: z.enum(BATCH_KINDS),
    subjects: z.number().int().meta({ description: 'How many subjects were sent (repeats counted).' }),
    charged_items: z
      .number()
      .int()
      .meta({ description: 'How many were scanned and paid for: the distinct subjects.' }),
    request_id: z.uuid().meta({ description: 'Identifier of this request (each result carries it too).' }),
    results: z.array(ScanResultSchema).meta({
      description: 'One ScanResult per subject sent, in its order: results[i] answers subjects[i].',
    }),
  })
  .meta({ description: 'A ScanResult for each subject, in the order sent, and what was charged.' });

export type BatchResult = z.infer<typeof BatchResultSchema>;
