/**
 * Functions fit on a screen: none in src/ or a package's src/ is over 80 lines (generated
 * files aside). Counted from the function's first line to its last, as an editor shows it.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

const MOST_LINES = 80;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'generated' ? [] : sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every function-like declaration with a body longer than the limit, as `lines file:line name`. */
function longFunctions(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.end).line;
      const name = 'name' in node && node.name ? node.name.getText(source) : '(anonymous)';
      if (last - first + 1 > MOST_LINES) found.push(`${last - first + 1} ${file}:${first + 1} ${name}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('function length', () => {
  const packages = readdirSync('packages').map((p) => join('packages', p, 'src'));
  const roots = ['src', ...packages.filter((p) => statSync(p, { throwIfNoEntry: false })?.isDirectory())];
  const files = roots.flatMap(sourceFiles);

  it('reads the sources it judges', () => {
    assert.ok(files.length > 300, `only ${files.length} files found`);
  });

  it(`finds no function over ${MOST_LINES} lines`, () => {
    assert.deepEqual(files.flatMap(longFunctions), []);
  });
});
