#!/usr/bin/env node
// The risk-scan command runs the compiled JavaScript in dist/ (npm run build). When dist/ is
// missing or older than src/, it is built first: `npm install && npm start` works as it is, and
// an edit of src/ never runs as the old build. RISK_SCAN_FROM_SOURCE=1 runs the TypeScript
// sources through tsx instead (the tests, which must not build dist/ under each other).
import { build, buildProblem } from '../scripts/build.mjs';

async function loadCli() {
  if (process.env.RISK_SCAN_FROM_SOURCE === '1') {
    const { register } = await import('tsx/esm/api');
    register();
    return import('../src/cli/index.ts');
  }
  const problem = buildProblem();
  if (problem !== null) {
    console.error(
      `risk-scan: dist/ is ${problem === 'missing' ? 'missing' : 'older than src/'}; building it (npm run build)…`,
    );
    const code = build();
    if (code !== 0) {
      console.error(
        code === null
          ? 'risk-scan: dist/ cannot be built without TypeScript (a dev dependency): run npm install && npm run build where the dev dependencies are installed, and ship dist/.'
          : "risk-scan: npm run build failed (tsc's errors are above); fix them, or run the sources with RISK_SCAN_FROM_SOURCE=1.",
      );
      process.exit(2);
    }
  }
  return import('../dist/cli/index.js');
}

const { main } = await loadCli();
await main(process.argv.slice(2), process.env);
