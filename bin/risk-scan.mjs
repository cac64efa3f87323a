#!/usr/bin/env node
// The risk-scan command: runs the TypeScript sources through tsx (no build step needed).
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli/index.ts');
const code = await runCli(process.argv.slice(2), process.env);
if (code >= 0) process.exitCode = code;
