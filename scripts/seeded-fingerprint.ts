/**
 * A fingerprint of the seeded sandbox chain: every account's lamports, owner and data hash, every
 * transaction record, and the manifest — under a fixed clock and faucet key, so two seedings of the
 * same scenarios print the same hash. Used to show that a refactor of the scenarios changed no byte;
 * `--shuffle N` lists the scenario entries in the N-th shuffled order first (the hash must not move).
 * Usage: npx tsx scripts/seeded-fingerprint.ts [--detail FILE] [--shuffle N]
 */
import crypto, { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const FIXED_NOW = Date.UTC(2026, 0, 1);
Date.now = () => FIXED_NOW;
// The faucet's key is the chain's one random value; a fixed one makes its airdrops repeat.
crypto.randomBytes = ((size: number) => Buffer.alloc(size, 7)) as typeof crypto.randomBytes;
syncBuiltinESMExports();

const { createSandboxChain } = await import('../src/sandbox/chain/chain.js');
const { seedScenarios } = await import('../src/sandbox/scenarios/index.js');
const { SCENARIOS } = await import('../src/sandbox/scenarios/schedule.js');

const sha = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');
const json = (value: unknown) => JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
const shuffle = process.argv.indexOf('--shuffle');
// Listed by a hash of the seed and each name: an order that has nothing to do with the timeline.
const listedBy = (entry: { name: string }) => sha(`${process.argv[shuffle + 1]}:${entry.name}`);
const entries =
  shuffle > 0 ? [...SCENARIOS].sort((a, b) => listedBy(a).localeCompare(listedBy(b))) : SCENARIOS;

const chain = await createSandboxChain({ autoAdvance: false });
const manifest = await seedScenarios(chain, { entries });
const state = chain.exportState();
const addresses = new Set<string>();
for (const record of state.history) for (const key of record.accountKeys ?? []) addresses.add(String(key));
const collect = (value: unknown): void => {
  if (typeof value === 'string' && /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value)) addresses.add(value);
  else if (Array.isArray(value)) value.forEach(collect);
  else if (value && typeof value === 'object') Object.values(value).forEach(collect);
};
collect(manifest);
const { getBase58Decoder } = await import('@solana/kit');
const base58 = getBase58Decoder();
// Accounts written directly (pools, lockers) appear in no transaction: list every owner's accounts too.
const owners = new Set<string>();
for (let round = 0; round < 3; round += 1) {
  for (const address of [...addresses]) {
    try {
      const account = chain.getAccount(address);
      if (account) owners.add(base58.decode(account.owner()));
    } catch {}
  }
  // Not the system program's: LiteSVM's own airdrop key is random, and plain wallets show up in history.
  owners.delete('11111111111111111111111111111111');
  for (const owner of owners) {
    for (const owned of chain.programAccounts(owner)) addresses.add(base58.decode(owned.address));
  }
}
const accounts: string[] = [];
for (const address of [...addresses].sort()) {
  let account: ReturnType<typeof chain.getAccount>;
  try {
    account = chain.getAccount(address);
  } catch {
    continue;
  }
  if (account === null) continue;
  accounts.push(
    `${address} ${account.lamports()} ${base58.decode(account.owner())} ${account.executable()} ${sha(account.data())}`,
  );
}
const history = state.history.map((record) => sha(json({ ...record, wire: sha(record.wire) })));
const lines = [`manifest ${sha(json(manifest))}`, `slot ${state.slot}`, ...accounts, ...history];
const detail = process.argv.indexOf('--detail');
if (detail > 0) writeFileSync(process.argv[detail + 1] as string, `${lines.join('\n')}\n${json(manifest)}\n`);
if (shuffle > 0) console.log(`entries listed as: ${entries.map((entry) => entry.name).join(' | ')}`);
console.log(
  `accounts ${accounts.length}, transactions ${history.length}, fingerprint ${sha(lines.join('\n'))}`,
);
chain.stop();
