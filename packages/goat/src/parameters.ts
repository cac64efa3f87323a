/** What each tool takes, as GOAT tool parameters (a Zod schema the model's arguments are parsed by). */
import { createToolParameters } from '@goat-sdk/core';
import { z } from 'zod';

const base58 = (what: string, min: number, max: number) =>
  z
    .string()
    .regex(new RegExp(`^[1-9A-HJ-NP-Za-km-z]{${min},${max}}$`), `${what} must be base58`)
    .describe(what);

const address = (what: string) => base58(what, 32, 44);

export class MintParameters extends createToolParameters(
  z.object({ mint: address('The token mint address to scan') }),
) {}

export class WalletParameters extends createToolParameters(
  z.object({ address: address('The wallet address to scan') }),
) {}

export class SignatureParameters extends createToolParameters(
  z.object({ signature: base58('The transaction signature to verify', 64, 88) }),
) {}

export class ProgramParameters extends createToolParameters(
  z.object({ programId: address('The program id to scan') }),
) {}

export class SimulateParameters extends createToolParameters(
  z.object({
    transaction: z
      .string()
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'transaction must be base64')
      .describe('The transaction not yet sent, as a base64 wire transaction (signed or not)'),
  }),
) {}
