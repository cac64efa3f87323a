import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Address, createSolanaRpc } from '@solana/kit';
import { createSandboxChain, type SandboxChain } from '../../src/sandbox/chain/chain.js';
import { readSnapshotFile, writeSnapshotFile } from '../../src/sandbox/chain/snapshot-file.js';
import { type SandboxRpc, startSandboxRpc } from '../../src/sandbox/rpc/server.js';
import type { ScenarioSubject } from '../../src/sandbox/scenarios/index.js';
import {
  loadOrSeed,
  MAX_AGE_MS,
  restoreSeeded,
  type SeededResult,
  type SeededState,
  seedKey,
  shiftedState,
  snapshotProblem,
  sourcesKey,
} from '../../src/sandbox/seeded-snapshot.js';
import { SCANNERS } from '../../src/scans/registry.js';
import type { SolanaRpc } from '../../src/solana/rpc.js';

const dir = mkdtempSync(join(tmpdir(), 'seeded-snapshot-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const snapshotFile = () => join(dir, readdirSync(dir).find((name) => name.endsWith('.snapshot'))!);
/** Seconds the loaded state's block times were moved by, against the seeded one's. */
const shiftOf = (seeded: SeededState, loaded: SeededState) =>
  loaded.snapshot.history[0]!.blockTime - seeded.snapshot.history[0]!.blockTime;

/** The file with its header's savedAtMs set back by `ms` (the header is not under the checksum). */
function ageFile(path: string, ms: number): void {
  const file = readFileSync(path);
  const newline = file.indexOf(0x0a);
  const header = JSON.parse(file.subarray(0, newline).toString('utf8'));
  header.savedAtMs -= ms;
  writeFileSync(
    path,
    Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), file.subarray(newline + 1)]),
  );
}

let seeded: SeededResult;
let loaded: SeededResult;
const said: string[] = [];

before(async () => {
  seeded = await loadOrSeed({ dir, slotMs: 400, log: (m) => said.push(m) });
  loaded = await loadOrSeed({ dir, slotMs: 400, log: (m) => said.push(m) });
});

describe('the seeded chain kept as a snapshot', () => {
  it('is seeded and written on the first start, and read back on the next', () => {
    assert.equal(seeded.source, 'seeded');
    assert.equal(loaded.source, 'snapshot');
    assert.match(said[0]!, /seeding the scenarios \(snapshot .* does not exist yet\)/);
    assert.match(said[1]!, /the seeded chain from its snapshot/);
  });

  it('holds every account, blockhash and transaction the seeding made', () => {
    const [a, b] = [seeded.snapshot, loaded.snapshot];
    assert.ok(Buffer.from(a.svm).equals(Buffer.from(b.svm)), "LiteSVM's whole state, byte for byte");
    assert.equal(b.slot, a.slot);
    assert.deepEqual(b.blockhashes, a.blockhashes);
    assert.deepEqual(b.faucetSeed, a.faucetSeed);
    const shift = shiftOf(seeded, loaded);
    assert.ok(shift >= 0 && shift < 600, `moved ${shift} s`);
    assert.deepEqual(b.history, shiftedState(seeded, shift).snapshot.history);
    assert.deepEqual(loaded.manifest, shiftedState(seeded, shift).manifest);
  });

  it('loaded an hour later, tells the ages a chain seeded now would', async () => {
    const copy = join(dir, 'aged');
    rmSync(copy, { recursive: true, force: true });
    await writeSnapshotFile(join(copy, 'x.snapshot'), 'k', { seeded });
    ageFile(join(copy, 'x.snapshot'), 3_600_000);
    const read = await readSnapshotFile<unknown>(join(copy, 'x.snapshot'), 'k');
    assert.equal(snapshotProblem(read, Date.now()), null, 'an hour old is still current');
    ageFile(snapshotFile(), 3_600_000);
    const later = await loadOrSeed({ dir, slotMs: 400 });
    assert.equal(later.source, 'snapshot');
    const shift = shiftOf(seeded, later);
    assert.ok(shift >= 3_600 && shift < 4_200, `block times moved ${shift} s`);
    const wallet = later.manifest.subjects.find((s) => s.kind === 'wallet' && 'firstBlockTime' in s.expect)!;
    const before = seeded.manifest.subjects.find((s) => s.name === wallet.name)!;
    assert.equal(
      (wallet.expect as { firstBlockTime: number }).firstBlockTime,
      (before.expect as { firstBlockTime: number }).firstBlockTime + shift,
      "the manifest's block times move with the chain's",
    );
    ageFile(snapshotFile(), -3_600_000);
  });

  it('is not used once older than a day, or taken in the future', async () => {
    const read = await readSnapshotFile<unknown>(snapshotFile(), seedKey(400));
    assert.ok(read.ok);
    const at = read.header.savedAtMs;
    assert.equal(snapshotProblem(read, at + MAX_AGE_MS), null);
    assert.equal(snapshotProblem(read, at + MAX_AGE_MS + 3_600_000), 'is 25 hours old');
    assert.match(snapshotProblem(read, at - 1) ?? '', /in the future/);
  });

  it('is refused, with the reason, when truncated, damaged or built from other sources', async () => {
    const path = join(dir, 'damaged', 'x.snapshot');
    await writeSnapshotFile(path, 'k', { seeded: 'a'.repeat(1000) });
    const whole = readFileSync(path);
    writeFileSync(path, whole.subarray(0, whole.length - 10));
    assert.match(snapshotProblem(await readSnapshotFile(path, 'k'), Date.now()) ?? '', /is truncated/);
    const flipped = Buffer.from(whole);
    flipped[flipped.length - 5] = 0x62;
    writeFileSync(path, flipped);
    assert.match(snapshotProblem(await readSnapshotFile(path, 'k'), Date.now()) ?? '', /is damaged/);
    writeFileSync(path, whole);
    assert.match(snapshotProblem(await readSnapshotFile(path, 'other'), Date.now()) ?? '', /other sources/);
    writeFileSync(path, 'not a snapshot');
    assert.match(snapshotProblem(await readSnapshotFile(path, 'k'), Date.now()) ?? '', /is truncated/);
    writeFileSync(path, '{"format":\n');
    assert.match(snapshotProblem(await readSnapshotFile(path, 'k'), Date.now()) ?? '', /is unreadable/);
    // A whole payload under a header without its time (or no header object at all) is not taken:
    // its age would be NaN, which no age check refuses.
    const [headerLine, ...rest] = whole.toString('utf8').split('\n');
    const { savedAtMs: _, ...timeless } = JSON.parse(headerLine!);
    writeFileSync(path, [JSON.stringify(timeless), ...rest].join('\n'));
    assert.match(snapshotProblem(await readSnapshotFile(path, 'k'), Date.now()) ?? '', /malformed header/);
    writeFileSync(path, ['null', ...rest].join('\n'));
    assert.match(snapshotProblem(await readSnapshotFile(path, 'k'), Date.now()) ?? '', /malformed header/);
  });

  it('written by many at once, is one whole file and leaves no temporary behind', async () => {
    const path = join(dir, 'racing', 'x.snapshot');
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => writeSnapshotFile(path, 'k', { i, pad: 'p'.repeat(1e5) })),
    );
    const read = await readSnapshotFile<{ i: number }>(path, 'k');
    assert.ok(read.ok && read.payload.i >= 0 && read.payload.i < 8);
    assert.deepEqual(readdirSync(join(dir, 'racing')), ['x.snapshot']);
  });

  it("changes its key with any module seeding imports, and with the slot's length", () => {
    const sources = mkdtempSync(join(tmpdir(), 'seed-key-'));
    try {
      writeFileSync(join(sources, 'entry.ts'), "import { x } from './layout.js';\nexport const y = x;\n");
      writeFileSync(join(sources, 'layout.ts'), 'export const x = 1;\n');
      writeFileSync(join(sources, 'unrelated.ts'), 'export const z = 1;\n');
      const key = () => sourcesKey([join(sources, 'entry.ts')], sources);
      const first = key();
      writeFileSync(join(sources, 'unrelated.ts'), 'export const z = 2;\n');
      assert.equal(key(), first, 'a module seeding does not import');
      writeFileSync(join(sources, 'layout.ts'), 'export const x = 2;\n');
      assert.notEqual(key(), first, 'an imported module changed');
    } finally {
      rmSync(sources, { recursive: true, force: true });
    }
    assert.notEqual(seedKey(400), seedKey(200));
  });

  it('seeds again, and says why, when the file is truncated', async () => {
    const path = snapshotFile();
    const whole = readFileSync(path);
    writeFileSync(path, whole.subarray(0, whole.length >> 1));
    const lines: string[] = [];
    const again = await loadOrSeed({ dir, slotMs: 400, log: (m) => lines.push(m) });
    assert.equal(again.source, 'seeded');
    assert.match(lines.join('\n'), /seeding the scenarios \(snapshot .* is truncated/);
    const named = (state: SeededState) =>
      state.manifest.subjects.map((x) => `${x.name} ${'signature' in x ? x.signature : x.address}`);
    assert.deepEqual(named(again), named(seeded), 'the same subjects at the same addresses');
    assert.equal((await readSnapshotFile(path, seedKey(400))).ok, true, 'and a whole file again');
  });
});

describe('a seeded chain and one loaded from its snapshot, over RPC', () => {
  const chains: SandboxChain[] = [];
  const servers: SandboxRpc[] = [];
  const rpcs = () => servers.map((server) => createSolanaRpc(server.url));
  before(async () => {
    // The loaded state moved back to the seeded one's time, so both answer for the same moment.
    for (const state of [seeded, shiftedState(loaded, -shiftOf(seeded, loaded))]) {
      const chain = await createSandboxChain({ autoAdvance: false });
      restoreSeeded(chain, state);
      chains.push(chain);
      servers.push(await startSandboxRpc({ chain, host: '127.0.0.1', port: 0 }));
    }
  });
  after(async () => {
    for (const chain of chains) chain.stop();
    await Promise.all(servers.map((s) => s.close()));
  });

  it('answer alike for every account a seeded transaction names, and for its history', async () => {
    // Sysvars aside: the clock reads the moment each chain was restored at, to the second.
    const named = [...new Set(seeded.snapshot.history.flatMap((r) => r.accountKeys))]
      .filter((a) => !a.startsWith('Sysvar'))
      .sort() as Address[];
    assert.ok(named.length > 500, `${named.length} accounts`);
    for (let i = 0; i < named.length; i += 100) {
      const batch = named.slice(i, i + 100);
      const [a, b] = await Promise.all(
        rpcs().map((rpc) => rpc.getMultipleAccounts(batch, { encoding: 'base64' }).send()),
      );
      assert.deepEqual(b!.value, a!.value);
    }
    for (const address of named.slice(0, 200)) {
      const [a, b] = await Promise.all(rpcs().map((rpc) => rpc.getSignaturesForAddress(address).send()));
      assert.deepEqual(b, a, address);
    }
  });

  it('scan every seeded subject to the same flags and score', async () => {
    const at = Date.now();
    const scan = (server: SandboxRpc, s: ScenarioSubject) =>
      SCANNERS[s.kind]('signature' in s ? s.signature : s.address, {
        rpc: createSolanaRpc(server.url) as unknown as SolanaRpc,
        now: () => at,
      }).then(
        ({ result }) => ({ flags: result.flags, risk_score: result.risk_score }),
        (e: Error) => ({ failed: e.message }),
      );
    const subjects = seeded.manifest.subjects.filter((s: ScenarioSubject) => !s.name.startsWith('mainnet:'));
    assert.ok(subjects.length > 50, `${subjects.length} subjects`);
    for (const s of subjects) {
      // Their evidence may differ where the scan picks among equal holders: a fresh LiteSVM lists
      // accounts of equal balance in an order of its own, two seedings' chains as much as these.
      const [a, b] = await Promise.all(servers.map((server) => scan(server, s)));
      assert.deepEqual(b, a, s.name);
    }
  });
});
