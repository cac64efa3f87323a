/**
 * The layers of src/ hold (docs/architecture.md): which folder may import which, read from the
 * source's own import statements, and no import circle among the files. The client package
 * (packages/client) stands apart: it imports nothing of the service, which takes it by its name.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PAID_ENDPOINTS, type PaidEndpoint } from '../src/catalog.js';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** Each file of src/ (as 'server/app.ts') with the files of src/ it imports (types too). */
function importGraph(): Map<string, string[]> {
  const specifier =
    /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const imported = [...text.matchAll(specifier)].map((m) => {
      const target = normalize(join(dirname(file), (m[1] ?? m[2])!)).replace(/\.js$/, '.ts');
      return relative(SRC, target);
    });
    graph.set(relative(SRC, file), imported);
  }
  return graph;
}

/** The folder of src/ a file lives in ('server', 'x402'), or the file itself at the top ('config.ts'). */
const layerOf = (file: string) => file.split('/')[0]!;

/** Imports that must never be: from each layer, the layers it may not import. */
const FORBIDDEN: Readonly<Record<string, readonly string[]>> = {
  server: ['mcp', 'sandbox', 'cli'],
  mcp: ['server', 'sandbox', 'cli'],
  // What pays (risk-scan call, risk-scan mcp: their glue to the client package) is a client of
  // the API, never a part of it.
  client: ['server', 'door', 'x402', 'mcp', 'scans', 'state', 'sandbox', 'cli'],
  door: ['server', 'mcp', 'sandbox', 'cli'],
  watch: ['server', 'mcp', 'sandbox', 'cli'],
  x402: ['server', 'door', 'mcp', 'scans', 'sandbox', 'cli'],
  scans: ['server', 'door', 'x402', 'mcp', 'sandbox', 'cli'],
  state: ['server', 'door', 'mcp', 'sandbox', 'cli'],
  solana: ['server', 'door', 'x402', 'mcp', 'scans', 'sandbox', 'cli'],
  signing: ['server', 'door', 'x402', 'mcp', 'scans', 'state', 'sandbox', 'cli'],
  contract: ['server', 'door', 'x402', 'mcp', 'scans', 'sandbox', 'cli'],
  'config.ts': ['server', 'door', 'mcp', 'sandbox', 'cli'],
  'catalog.ts': ['server', 'door', 'mcp', 'sandbox', 'cli'],
  // The catalog's terms (price rules, subject kinds, body schemas, entry types) sit below the
  // table and below contract/, which reads the subject kinds from them.
  terms: [
    'server',
    'door',
    'x402',
    'mcp',
    'scans',
    'watch',
    'state',
    'contract',
    'catalog.ts',
    'sandbox',
    'cli',
  ],
};

/** The storage clients: only the state (src/state/) talks to a database. */
const STORAGE_PACKAGES = ['lmdb', 'ioredis', 'bullmq'];

/** Each file of src/ (as 'state/open.ts') with the packages it imports by name, subpaths cut off. */
function packageImports(): Map<string, string[]> {
  const specifier =
    /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s*['"]([^'".][^'"]*)['"]|import\(\s*['"]([^'".][^'"]*)['"]\s*\)/g;
  const imports = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const named = [...text.matchAll(specifier)].map((m) => {
      const [scope, name] = (m[1] ?? m[2])!.split('/');
      return scope!.startsWith('@') ? `${scope}/${name}` : scope!;
    });
    imports.set(relative(SRC, file), named);
  }
  return imports;
}

/** Files in an import circle (Tarjan's strongly connected components of more than one file). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    for (const to of graph.get(file) ?? []) {
      if (!graph.has(to)) continue;
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (stack.includes(to)) {
        low.set(file, Math.min(low.get(file)!, index.get(to)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== file);
    if (component.length > 1) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('the layers of src/', () => {
  const graph = importGraph();

  it('reads the imports (the paid door imports the payment core)', () => {
    assert.ok(graph.get('door/paid-door.ts')?.includes('x402/paid-call.ts'));
  });

  for (const [layer, forbidden] of Object.entries(FORBIDDEN)) {
    it(`${layer} imports nothing from ${forbidden.join(', ')}`, () => {
      const wrong = [...graph]
        .filter(([file]) => layerOf(file) === layer)
        .flatMap(([file, imported]) =>
          imported.filter((to) => forbidden.includes(layerOf(to))).map((to) => `${file} -> ${to}`),
        );
      assert.deepEqual(wrong, []);
    });
  }

  it(`imports ${STORAGE_PACKAGES.join(', ')} only under state/`, () => {
    const outside = [...packageImports()]
      .filter(([file]) => layerOf(file) !== 'state')
      .flatMap(([file, named]) =>
        named.filter((name) => STORAGE_PACKAGES.includes(name)).map((name) => `${file} -> ${name}`),
      );
    assert.deepEqual(outside, []);
  });

  it('reads the packages imported (the state imports lmdb and ioredis)', () => {
    const named = new Set([...packageImports()].flatMap(([, names]) => names));
    for (const name of ['lmdb', 'ioredis', 'bullmq']) assert.ok(named.has(name), name);
  });

  it('has no import circle', () => {
    assert.deepEqual(circles(graph), []);
  });

  it('takes the client package by its name, never by a path into packages/', () => {
    const intoPackages = [...graph].flatMap(([file, imported]) =>
      imported.filter((to) => to.startsWith('../packages/')).map((to) => `${file} -> ${to}`),
    );
    assert.deepEqual(intoPackages, []);
  });
});

/** An endpoint's own folder of src/: its scanner's (`scans/<id>/`), or the watches' (`watch/`). */
const folderOf = (e: PaidEndpoint) => (e.producer === 'watch' ? 'watch/' : `scans/${e.id}/`);

/**
 * Where a file compares an endpoint's id: `endpoint.id === …`, `id !== 'watch'`, `e.id === kind`,
 * `switch (endpoint.id)`. What differs between endpoints is said by the catalog (its input, price
 * rule, producer, response), so code outside an endpoint's own folder never asks which it has.
 */
function endpointIdComparisons(file: string, text: string): string[] {
  const ids = PAID_ENDPOINTS.map((e) => e.id).join('|');
  const endpointish = String.raw`(?:\b(?:e|endpoint|\w*Endpoint|endpointId|id)\b|\.id\b)`;
  const patterns = [
    new RegExp(String.raw`${endpointish}\s*[!=]==\s*'(?:${ids})'`),
    new RegExp(String.raw`'(?:${ids})'\s*[!=]==\s*${endpointish}`),
    /\b(?:e|endpoint|\w*Endpoint)\.id\s*[!=]==|[!=]==\s*(?:e|endpoint|\w*Endpoint)\.id\b/,
    /\bswitch\s*\(\s*(?:[\w.]*\.id|endpoint|endpointId)\s*\)/,
  ];
  // Comments may say which endpoint they mean; only code counts (line numbers kept).
  const code = text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/\/\/[^\n]*/g, '');
  return code
    .split('\n')
    .flatMap((line, i) => (patterns.some((p) => p.test(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

describe('the catalog says what differs between endpoints', () => {
  it("no code outside an endpoint's own folder compares an endpoint id", () => {
    const own = PAID_ENDPOINTS.map(folderOf);
    const found = sourceFiles(SRC)
      .map((path) => relative(SRC, path))
      .filter((file) => !own.some((folder) => file.startsWith(folder)))
      .flatMap((file) => endpointIdComparisons(file, readFileSync(join(SRC, file), 'utf8')));
    assert.deepEqual(found, []);
  });

  it('finds the comparisons it forbids', () => {
    const old = [
      "if (endpoint.id === 'watch') {",
      "RETURNS[endpoint.id === 'watch' ? 'watch' : 'scan']",
      "(e) => e.id !== 'watch'",
      'PAID_ENDPOINTS.find((e) => e.id === kind)',
      "if (endpoint === 'token' && probed)",
      'switch (endpoint.id) {',
    ];
    assert.equal(endpointIdComparisons('x.ts', old.join('\n')).length, old.length);
    const fine = ["holding.kind === 'wallet'", "typeof id === 'string'", "// endpoint.id === 'watch'"];
    assert.deepEqual(endpointIdComparisons('x.ts', fine.join('\n')), []);
  });
});

describe('the client package (packages/client)', () => {
  const PACKAGE_SRC = fileURLToPath(new URL('../packages/client/src/', import.meta.url));

  it('imports nothing of the service: no relative import leaves its src/, no other workspace package', () => {
    const relative = /(?:from\s*|import\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
    const leaving = sourceFiles(PACKAGE_SRC).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(relative)]
        .map((m) => normalize(join(dirname(file), m[1]!)))
        .filter((target) => !target.startsWith(PACKAGE_SRC))
        .map((target) => `${file} -> ${target}`),
    );
    assert.deepEqual(leaving, []);
    const scoped = sourceFiles(PACKAGE_SRC).filter((file) =>
      /from\s*['"]@solana-risk-scan\//.test(readFileSync(file, 'utf8')),
    );
    assert.deepEqual(scoped, []);
  });
});
