// `sanad doctor [--json]`: one line per check, ✓ / ! / ✗ and the fix; exit 0 when nothing failed.
// `--bundle FILE [--log FILE …]`: the same report with versions, settings and the last log lines in
// one .tar.gz to hand over (doctor/bundle.ts), every secret of the data dir taken out.
import { parseArgs } from 'node:util';
import { runDiagnostics, type DoctorCheck } from '../../doctor/diagnostics.js';
import { existsSync } from 'node:fs';
import { secretsToRedact, writeDiagnosticsBundle } from '../../doctor/bundle.js';
import { openSecretStore } from '../../secrets/open-secret-store.js';
import { recordedSecretsFile } from '../../secrets/secrets-location.js';
import { CliError, usageError } from '../cli-error.js';
import type { Io } from '../io.js';

const MARK = { ok: '✓', warn: '!', fail: '✗' } as const;

function line(c: DoctorCheck): string {
  return `${MARK[c.status]} ${c.name}: ${c.detail}${c.fix ? `\n    → ${c.fix}` : ''}`;
}

export async function doctorCommand(args: string[], dataDir: string, io: Io, secretsFile: string | undefined): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { port: { type: 'string' }, bundle: { type: 'string' }, log: { type: 'string', multiple: true } },
    strict: true,
  });
  const port = Number(values.port ?? process.env.SANAD_PORT ?? 7437);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw usageError(`"${values.port ?? ''}" is not a port: use a number from 1 to 65535.`);
  const checks = await runDiagnostics({ dataDir, secretsFile, port });
  const failed = checks.some((c) => c.status === 'fail');
  if (values.bundle !== undefined) {
    if (existsSync(values.bundle)) throw new CliError(`${values.bundle} already exists; name a new file for the diagnostics.`);
    const store = await openSecretStore(dataDir, secretsFile ?? recordedSecretsFile(dataDir)).catch(() => null);
    const files = await writeDiagnosticsBundle({ dataDir, out: values.bundle, checks, logFiles: values.log ?? [], secrets: await secretsToRedact(store) });
    io.result(
      { ok: !failed, bundle: values.bundle, files },
      () => `Diagnostics saved to ${values.bundle} (${files.join(', ')}); secrets and tokens are taken out. Send this file with your report.`,
    );
    return 0;
  }
  io.result({ ok: !failed, checks }, () => checks.map(line).join('\n'));
  return failed ? 1 : 0;
}
