/**
 * Ports for a process a test starts later. A port found with listen(0) and let go is in the
 * kernel's ephemeral range, where the next listen(0) of any test running in parallel can take it
 * before our process binds it (CI saw a sandbox fail to start and a "closed" port answer HTTP).
 * These come from below that range, which listen(0) never hands out, and are checked free.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const LOWEST = 10_000;

/** The first port of the kernel's ephemeral range (32768 when it cannot be read). */
function ephemeralStart(): number {
  try {
    const first = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
    return Number.isInteger(first) && first > LOWEST + 1_000 ? first : 32_768;
  } catch {
    return 32_768;
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** A free port outside the ephemeral range; with `count`, the first of that many consecutive free ports. */
export async function unusedPort(count = 1): Promise<number> {
  const end = ephemeralStart() - count;
  for (;;) {
    const first = LOWEST + Math.floor(Math.random() * (end - LOWEST));
    let free = true;
    for (let i = 0; i < count && free; i++) free = await bindable(first + i);
    if (free) return first;
  }
}
