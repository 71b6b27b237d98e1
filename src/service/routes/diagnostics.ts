// GET /admin/diagnostics: the checks of `sanad doctor`, from the same code, for the GUI's
// Settings → Diagnostics. Read-only like the command; its own port counts as served by itself.
// GET /admin/diagnostics/bundle: "Save diagnostics", the same archive as `sanad doctor --bundle`
// (doctor/bundle.ts), with the log file SANAD_LOG_FILE names (the desktop app sets it to its own).
import type { DiagnosticList } from '../../contract/diagnostics.js';
import type { FastifyInstance } from 'fastify';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { secretsToRedact, writeDiagnosticsBundle } from '../../doctor/bundle.js';
import { runDiagnostics } from '../../doctor/diagnostics.js';
import { secured, type RouteKit } from './route-kit.js';

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

  app.get('/admin/diagnostics/bundle', { preHandler: secured(kit, 'admin') }, async (_req, reply) => {
    const checks = await runDiagnostics({
      dataDir: ctx.dataDir,
      secretsFile: ctx.secrets.store.path,
      port: ctx.address.port,
      servingPort: ctx.address.port,
      clock: ctx.clock,
    });
    const work = mkdtempSync(join(tmpdir(), 'sanad-bundle-'));
    try {
      const out = join(work, 'diagnostics.tar.gz');
      const logFile = process.env.SANAD_LOG_FILE;
      await writeDiagnosticsBundle({
        dataDir: ctx.dataDir,
        out,
        checks,
        logFiles: logFile ? [logFile] : [],
        secrets: await secretsToRedact(ctx.secrets.store),
        clock: ctx.clock,
      });
      const name = `sanad-diagnostics-${new Date(ctx.clock.now()).toISOString().slice(0, 19).replace(/[:T]/g, '-')}.tar.gz`;
      return await reply
        .type('application/gzip')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store')
        .send(readFileSync(out));
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
}
