#!/usr/bin/env node
// The risk-scan command: runs the TypeScript sources through tsx (no build step needed).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/index.ts');
await main(process.argv.slice(2), process.env);
