/** Files written for others to read (the sandbox manifest, a payer keypair). */
import { rename, writeFile } from 'node:fs/promises';

/** Written whole, then renamed into place: a reader never sees half of the file. */
export async function writeWhole(path: string, text: string, mode?: number): Promise<void> {
  const temporary = `${path}.tmp`;
  await writeFile(temporary, text, mode === undefined ? {} : { mode });
  await rename(temporary, path);
}
