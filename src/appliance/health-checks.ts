// The core's readiness checks: the store answers, and the registered models are on disk.
import type { ServiceContext } from '../service/context.js';
import type { HealthCheck } from '../service/routes/health.js';

export function coreHealthChecks(ctx: ServiceContext): HealthCheck[] {
  return [
    {
      name: 'database',
      run: () => {
        ctx.db.prepare('SELECT 1').get();
        return { ok: true, detail: 'the store answers' };
      },
    },
    {
      name: 'models',
      run: async () => {
        const models = await ctx.models.list();
        const bad = models.filter((m) => m.status !== 'available').map((m) => `${m.id} is ${m.status}`);
        if (models.length === 0) return { ok: false, severity: 'warning', detail: 'no model is registered; run `sanad models add PATH`' };
        return bad.length === 0
          ? { ok: true, detail: `${models.length} model(s) available` }
          : { ok: false, severity: 'warning', detail: bad.join('; ') };
      },
    },
  ];
}
