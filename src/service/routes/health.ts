// /health/live (the process serves) and /health/ready (every check passes; 503 names the ones
// that do not). Other parts of the appliance add checks (keychain, restic, backups, drills).
import type { FastifyInstance } from 'fastify';
import type { CheckResult, HealthCheck } from '../health-check.js';
import type { RouteKit } from './kit.js';

export type { CheckResult, HealthCheck } from '../health-check.js';

export async function runChecks(checks: readonly HealthCheck[]): Promise<{ ready: boolean; checks: Record<string, CheckResult> }> {
  const results: Record<string, CheckResult> = {};
  let ready = true;
  for (const check of checks) {
    let result: CheckResult;
    try {
      result = await check.run();
    } catch (err) {
      result = { ok: false, detail: err instanceof Error ? err.message : String(err) };
    }
    results[check.name] = result;
    if (!result.ok && result.severity !== 'warning') ready = false;
  }
  return { ready, checks: results };
}

export function registerHealthRoutes(app: FastifyInstance, kit: RouteKit): void {
  app.get('/health/live', async () => ({ status: 'live' }));
  app.get('/health/ready', async (_req, reply) => {
    const { ready, checks } = await runChecks(kit.ctx.healthChecks);
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unready', checks });
  });
}
