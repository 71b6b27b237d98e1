// `sanad doctor [--json]`: one line per check, ✓ / ! / ✗ and the fix; exit 0 when nothing failed.
import { parseArgs } from 'node:util';
import { runDiagnostics, type DoctorCheck } from '../../doctor/diagnostics.js';
import { usageError } from '../cli-error.js';
import type { Io } from '../io.js';

const MARK = { ok: '✓', warn: '!', fail: '✗' } as const;

function line(c: DoctorCheck): string {
  return `${MARK[c.status]} ${c.name}: ${c.detail}${c.fix ? `\n    → ${c.fix}` : ''}`;
}

export async function doctorCommand(args: string[], dataDir: string, io: Io, secretsFile: string | undefined): Promise<number> {
  const { values } = parseArgs({ args, options: { port: { type: 'string' } }, strict: true });
  const port = Number(values.port ?? process.env.SANAD_PORT ?? 7437);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw usageError(`"${values.port ?? ''}" is not a port: use a number from 1 to 65535.`);
  const checks = await runDiagnostics({ dataDir, secretsFile, port });
  const failed = checks.some((c) => c.status === 'fail');
  io.result({ ok: !failed, checks }, () => checks.map(line).join('\n'));
  return failed ? 1 : 0;
}
