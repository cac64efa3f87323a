/** /health: overall status, mode, version and the state of each dependency. */
import type { HealthCheck } from '../../health.js';
import type { FacilitatorDirectory } from '../../x402/facilitators.js';

export interface HealthDeps {
  readonly mode: string;
  readonly version: string;
  readonly startedAt: number;
  readonly facilitators: FacilitatorDirectory;
  readonly checks: Readonly<Record<string, HealthCheck>>;
}

function facilitatorCheck(directory: FacilitatorDirectory) {
  const advertised = directory.advertised();
  return {
    status: advertised === null ? ('down' as const) : ('ok' as const),
    ...(advertised === null ? { detail: directory.unavailableReason() } : {}),
    advertised: advertised?.url ?? null,
    facilitators: directory.status().map((s) => ({
      url: s.url,
      status: s.healthy ? 'ok' : 'down',
      feePayer: s.feePayer,
      error: s.lastError,
      checked_at: s.checkedAt === null ? null : new Date(s.checkedAt).toISOString(),
    })),
  };
}

export async function healthReport(deps: HealthDeps) {
  const names = Object.keys(deps.checks);
  const results = await Promise.all(names.map((name) => deps.checks[name]!()));
  const checks: Record<string, unknown> = { payments: facilitatorCheck(deps.facilitators) };
  names.forEach((name, i) => {
    checks[name] = results[i];
  });
  const allOk = Object.values(checks).every((c) => (c as { status: string }).status === 'ok');
  return {
    status: allOk ? 'ok' : 'degraded',
    mode: deps.mode,
    version: deps.version,
    uptime_seconds: Math.round((Date.now() - deps.startedAt) / 1000),
    checks,
  };
}
