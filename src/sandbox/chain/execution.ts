import bs58 from 'bs58';
import type { TransactionMetadata } from 'litesvm';
import { addressText, MEMO_V1_PROGRAM, MEMO_V2_PROGRAM, MEMO_V3_PROGRAM } from './addresses.js';

const MEMO_PROGRAMS = new Set([MEMO_V1_PROGRAM, MEMO_V2_PROGRAM, MEMO_V3_PROGRAM]);

import type { InnerInstructionSet, TransactionMeta } from './history.js';
import type { WireTransaction } from './wire.js';

export function innerInstructionsOf(meta: TransactionMetadata): InnerInstructionSet[] {
  const sets: InnerInstructionSet[] = [];
  meta.innerInstructions().forEach((list, index) => {
    if (list.length === 0) return;
    sets.push({
      index,
      instructions: list.map((inner) => {
        const compiled = inner.instruction();
        return {
          programIdIndex: compiled.programIdIndex(),
          accounts: [...compiled.accounts()],
          data: bs58.encode(compiled.data()),
          stackHeight: inner.stackHeight(),
        };
      }),
    });
  });
  return sets;
}

export function returnDataOf(meta: TransactionMetadata): TransactionMeta['returnData'] | null {
  const returned = meta.returnData();
  const data = returned.data();
  if (data.length === 0) return null;
  return {
    programId: addressText(returned.programId()),
    data: [Buffer.from(data).toString('base64'), 'base64'],
  };
}

const utf8 = new TextDecoder('utf-8');

/** Mainnet's memo column: each memo instruction as `[byteLength] text`, joined by "; ". */
export function memoOf(tx: WireTransaction): string | null {
  const memos: string[] = [];
  for (const ix of tx.instructions) {
    const program = tx.staticAccounts[ix.programIdIndex];
    if (!program || !MEMO_PROGRAMS.has(program)) continue;
    memos.push(`[${ix.data.length}] ${utf8.decode(ix.data)}`);
  }
  return memos.length ? memos.join('; ') : null;
}
