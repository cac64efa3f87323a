/**
 * The accounts whose change can move a watched subject's verdict, taken from what its last scan
 * already read (the result's evidence), so following a watch costs no read of its own:
 *   - token:   the mint; each market's pool, LP mint and the LP holders' token accounts; the pool
 *              vaults and bonding curve the holder count excluded; the mint and freeze authorities
 *              and the creator, with their token account of the mint;
 *   - pumpfun: all of the token's, plus the bonding curve, the graduated pool and the creator;
 *   - program: the program, its ProgramData (code and upgrade authority) and the upgrade authority;
 *   - wallet:  the wallet's own account.
 * Holders' token accounts are not followed (there may be thousands): a transfer between holders, or
 * a freeze paid for by another wallet, is seen at the next periodic re-scan.
 */

import { type Address, isAddress } from '@solana/kit';
import { findAssociatedTokenPda } from '@solana-program/token';
import type { ScanResult } from '../../contract/schemas.js';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../../solana/programs.js';
import type { WatchKind } from '../model.js';

type Evidence = Readonly<Record<string, unknown>>;

const record = (value: unknown): Evidence =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Evidence) : {};
const list = (value: unknown): Evidence[] => (Array.isArray(value) ? value.map(record) : []);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The addresses `subject`'s verdict rests on, its own first; duplicates and non-addresses dropped. */
export async function followedAccounts(
  kind: WatchKind,
  subject: string,
  result: ScanResult,
): Promise<readonly string[]> {
  const evidence = record(result.evidence);
  const found: (string | undefined)[] = [subject];
  if (kind === 'program') found.push(...programAccounts(evidence));
  if (kind === 'token' || kind === 'pumpfun') found.push(...(await tokenAccounts(subject, evidence)));
  return [...new Set(found.filter((a): a is string => a !== undefined && isAddress(a)))];
}

function programAccounts(evidence: Evidence): (string | undefined)[] {
  return [text(evidence.program_data), text(evidence.upgrade_authority)];
}

async function tokenAccounts(mint: string, evidence: Evidence): Promise<(string | undefined)[]> {
  const markets = list(evidence.markets);
  const lpHolders = list(record(record(evidence.flags).LP_PULLABLE).wallets);
  const pool = record(evidence.pool);
  const actors = [
    text(evidence.mint_authority),
    text(evidence.freeze_authority),
    text(evidence.creator),
    text(record(evidence.launch).creator),
  ].filter((a): a is string => a !== undefined && isAddress(a));
  return [
    ...markets.flatMap((m) => [text(m.pool), text(m.lp_mint)]),
    ...lpHolders.map((w) => text(w.token_account)),
    ...list(evidence.excluded).map((x) => text(x.token_account)),
    text(evidence.bonding_curve),
    text(pool.address) ?? text(evidence.pool),
    ...actors,
    // What an authority or creator holds of the coin: a mint to itself, a dump of its dev buy.
    ...(await ownTokenAccounts(mint, evidence, actors)),
  ];
}

async function ownTokenAccounts(mint: string, evidence: Evidence, owners: readonly string[]) {
  if (!isAddress(mint)) return [];
  const tokenProgram = evidence.program === 'token-2022' ? TOKEN_2022_PROGRAM : TOKEN_PROGRAM;
  return Promise.all(
    [...new Set(owners)].map(
      async (owner) =>
        (await findAssociatedTokenPda({ owner: owner as Address, mint, tokenProgram }))[0] as string,
    ),
  );
}
