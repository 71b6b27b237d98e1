// /health/live (the process serves) and /health/ready (every check passes; 503 names the ones
// that do not). Other parts of the appliance add checks (keychain, restic, backups, drills).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate, checkHostAndOrigin, hasScope } from '../auth.js';
import type { CheckResult, HealthCheck } from '../health-check.js';
import { proofFor } from '../../store/service-file.js';
import { badRequest } from '../errors.js';
import type { RouteKit } from './route-kit.js';

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

/** True when the caller is admin (token or GUI session); never throws: the route also serves anyone. */
function callerIsAdmin(kit: RouteKit, req: FastifyRequest): boolean {
  try {
    return hasScope(authenticate(kit.ctx, kit.listener, req), 'admin');
  } catch {
    return false;
  }
}

export function registerHealthRoutes(app: FastifyInstance, kit: RouteKit): void {
  app.get('/health/live', async () => ({ status: 'live' }));
  // The CLI's challenge (cli/running-service.ts): proves this is the service service.json records
  // before the CLI sends it a token. On this machine's listener only, as all of /health.
  app.get<{ Querystring: { nonce?: string } }>('/health/proof', async (req) => {
    checkHostAndOrigin(kit.listener, req);
    const nonce = req.query.nonce ?? '';
    if (!/^[0-9a-f]{32,128}$/.test(nonce)) throw badRequest('nonce must be 32 to 128 hex characters.', 'nonce');
    return { proof: proofFor(kit.ctx.proofKey, nonce) };
  });
  // Anyone (a supervisor, a script) may ask whether Sanad is ready and which checks fail; the
  // details name paths, repositories and where the secrets are, so only admin gets them.
  app.get('/health/ready', async (req, reply) => {
    checkHostAndOrigin(kit.listener, req);
    const { ready, checks } = await runChecks(kit.ctx.healthChecks);
    const named = (pick: (r: CheckResult) => boolean): string[] =>
      Object.entries(checks)
        .filter(([, r]) => pick(r))
        .map(([name]) => name);
    const summary = {
      status: ready ? 'ready' : 'unready',
      failing: named((r) => !r.ok && r.severity !== 'warning'),
      warnings: named((r) => !r.ok && r.severity === 'warning'),
    };
    return reply.code(ready ? 200 : 503).send(callerIsAdmin(kit, req) ? { ...summary, checks } : summary);
  });
}
