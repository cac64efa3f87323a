#!/usr/bin/env node
// The registry this project installs from serves only the Linux builds of packages that ship
// one native binary per platform (@biomejs/cli-*, litesvm-*). npm then leaves the other
// platforms' optional dependencies out of package-lock.json, and `npm ci` refuses the lock as
// "out of sync". This adds the missing entries, marked optional with the os/cpu/libc their
// names state, so `npm ci` skips them on Linux exactly as it would with a complete lock.
// Run after any `npm install` that changes the lock: `node scripts/complete-lockfile.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';

const LOCK = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(LOCK, 'utf8'));
const packages = lock.packages;

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = ['android', 'darwin', 'linux', 'win32', 'freebsd', 'openbsd', 'sunos', 'aix', 'netbsd'].find(
    (o) => parts.includes(o),
  );
  const cpu = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64'].find((c) =>
    parts.includes(c),
  );
  const libc = parts.includes('musl') ? 'musl' : parts.includes('gnu') ? 'glibc' : undefined;
  if (!os || !cpu) return null;
  return { os: [os], cpu: [cpu], ...(libc ? { libc: [libc] } : {}) };
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [dep, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const parent = path === '' ? '' : `${path}/`;
    const candidates = [`${parent}node_modules/${dep}`, `node_modules/${dep}`];
    if (candidates.some((c) => packages[c])) continue;
    const platform = platformOf(dep);
    if (!platform) continue;
    packages[`node_modules/${dep}`] = {
      version: String(range).replace(/^[\^~=]/, ''),
      dev: entry.dev,
      optional: true,
      ...platform,
    };
    if (!entry.dev) delete packages[`node_modules/${dep}`].dev;
    added++;
  }
}
const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} platform-specific optional entries added`);
