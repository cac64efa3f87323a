#!/usr/bin/env node
// The risk-scan command: runs the TypeScript sources through tsx (no build step needed).
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli/index.ts');
// biome-ignore lint/style/noProcessEnv: the command line entry hands the environment to config parsing
const code = await runCli(process.argv.slice(2), process.env);
if (code >= 0) process.exitCode = code;
