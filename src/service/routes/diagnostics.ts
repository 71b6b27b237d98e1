// GET /admin/diagnostics: the checks of `sanad doctor`, from the same code, for the GUI's
// Settings → Diagnostics. Read-only like the command; its own port counts as served by itself.
import type { DiagnosticList } from '../../contract/diagnostics.js';
import type { FastifyInstance } from 'fastify';
import { runDiagnostics } from '../../doctor/diagnostics.js';
import { secured, type RouteKit } from './kit.js';

export function registerDiagnosticsRoutes(app: FastifyInstance, kit: RouteKit): void {
  const { ctx } = kit;
  app.get('/admin/diagnostics', { preHandler: secured(kit, 'admin') }, async () => {
    const data = await runDiagnostics({
      dataDir: ctx.dataDir,
      secretsFile: ctx.secrets.store.path,
      port: ctx.address.port,
      servingPort: ctx.address.port,
      clock: ctx.clock,
    });
    const answer: DiagnosticList = { object: 'list', ok: !data.some((c) => c.status === 'fail'), data };
    return answer;
  });
}
