/**
 * `npm run load`: the load run, then the saturation run (LOAD_ONLY=load or saturation runs
 * one), against the sandbox with the API in its own process. LOAD_SECONDS (60),
 * LOAD_CONNECTIONS (50); the saturation run: SATURATION_SECONDS (20), SATURATION_CONNECTIONS
 * (100), SATURATION_MAX_INFLIGHT (1),
 * SATURATION_FACILITATOR_MS (50 ms added to each facilitator call), SATURATION_BUY_REFUSED (300). Results also go to bench/results/load.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { printLoadReport } from './load/print.js';
import { unmetRequirements } from './load/requirements.js';
import { type LoadReport, runLoad } from './load/run-load.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const only = process.env.LOAD_ONLY;

/** Paid calls per second the pools are sized for (each payment is used once). */
const PAID_PER_SECOND = env('LOAD_PAID_PER_SECOND', 150);

const runs: Record<string, () => Promise<LoadReport>> = {
  load: () => {
    const seconds = env('LOAD_SECONDS', 60);
    return runLoad({
      seconds,
      connections: env('LOAD_CONNECTIONS', 50),
      payments: { cached: seconds * PAID_PER_SECOND, fresh: (seconds * PAID_PER_SECOND) / 2 },
      // Sized for the load, so nothing is shed by the in-flight limit; the event-loop trigger is
      // off because the load generator shares this machine. Shedding is the saturation run's.
      apiEnv: { SHED_EVENT_LOOP_DELAY_MS: '0' },
    });
  },
  saturation: () => {
    const seconds = env('SATURATION_SECONDS', 20);
    return runLoad({
      seconds,
      connections: env('SATURATION_CONNECTIONS', 100),
      payments: { cached: seconds * PAID_PER_SECOND, fresh: (seconds * PAID_PER_SECOND) / 2 },
      apiEnv: { MAX_INFLIGHT_PAID: String(env('SATURATION_MAX_INFLIGHT', 1)) },
      facilitatorLatencyMs: env('SATURATION_FACILITATOR_MS', 50),
      saturation: { buyRefused: env('SATURATION_BUY_REFUSED', 300) },
    });
  },
};

const results: Record<string, unknown> = { at: new Date().toISOString(), node: process.version };
for (const [name, run] of Object.entries(runs)) {
  if (only !== undefined && only !== name) continue;
  const report = await run();
  printLoadReport(name === 'load' ? 'Load' : 'Saturation', report);
  if (name === 'saturation' && report.audit.refused === 0)
    console.log('\nNo paid call was refused: this API does not shed load (MAX_INFLIGHT_PAID unsupported).');
  const unmet = unmetRequirements(report, name === 'saturation');
  console.log(
    unmet.length === 0 ? '\nRequirements met.' : `\nRequirements NOT met:\n- ${unmet.join('\n- ')}`,
  );
  if (unmet.length > 0) process.exitCode = 1;
  results[name] = report;
}
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/load.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
