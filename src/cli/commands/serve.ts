// `sanad serve [--port N] [--host H] [--lan [--lan-port N]]`: runs the appliance headless until SIGINT/SIGTERM. The GUI's
// "open the restored data" restarts it on the restored folder, same host and port (the loop is
// hostAppliance in appliance/data-dir-switch.ts); each instance prints its address and login link
// (with --json: one JSON line per instance, `reason` start | switch | fallback).
import { parseArgs } from 'node:util';
import { hostAppliance } from '../../appliance/data-dir-switch.js';
import { secretsInFileSentence } from '../../appliance/secrets-in-file.js';
import type { Clock } from '../../clock.js';
import { usageError } from '../cli-error.js';
import type { Io } from '../io.js';

function parsePort(value: string | undefined, fallback: number, flag = '--port'): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0 || n > 65535)
    throw usageError(`"${value}" is not a port for ${flag}: use a number from 0 to 65535 (0 picks a free one).`);
  return n;
}

export async function serveCommand(args: string[], dataDir: string, io: Io, secretsFile: string | undefined, clock: Clock): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      lan: { type: 'boolean' },
      'lan-port': { type: 'string' },
      'secrets-file-if-no-keychain': { type: 'boolean' },
    },
    strict: true,
  });
  const port = parsePort(values.port ?? process.env.SANAD_PORT, 7437);
  if (values['lan-port'] !== undefined && values.lan !== true) throw usageError('--lan-port needs --lan: `sanad serve --lan --lan-port N`.');
  const lanPort = values['lan-port'] === undefined ? undefined : parsePort(values['lan-port'], 7438, '--lan-port');
  const stopped = new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      io.note('Stopping Sanad…');
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await hostAppliance(
    {
      dataDir,
      port,
      clock,
      host: values.host ?? process.env.SANAD_HOST ?? '127.0.0.1',
      ...(secretsFile ? { secretsFile } : {}),
      // The quick start's `npm start`: without a keychain, the default secrets file (said below).
      ...(values['secrets-file-if-no-keychain'] ? { secretsFallbackToFile: true } : {}),
      ...(values.lan ? { lan: { forced: true, ...(lanPort !== undefined ? { port: lanPort } : {}) } } : {}),
    },
    {
      stopped,
      started: (appliance, { reason, loginUrl }) => {
        const dir = appliance.ctx.dataDir;
        const store = appliance.ctx.secrets.store;
        if (store.path !== undefined) io.note(`Warning: ${secretsInFileSentence(store.path)}`);
        const lan = appliance.ctx.lan.status();
        const lanLines = lan.running
          ? [
              `Devices on the network: ${lan.url ?? '(no network address yet)'} (TLS; certificate SHA-256 ${lan.tls_fingerprint_sha256 ?? '?'}); pair one from the GUI's Clients screen, \`sanad client-config\` writes the certificate.`,
            ]
          : lan.error !== null
            ? [`Warning: devices on the network cannot reach Sanad: ${lan.error}`]
            : [];
        io.result(
          {
            pid: process.pid,
            port: appliance.port,
            url: appliance.url,
            login_url: loginUrl,
            data_dir: dir,
            reason,
            lan_url: lan.running ? lan.url : null,
            tls_fingerprint_sha256: lan.running ? lan.tls_fingerprint_sha256 : null,
          },
          () =>
            [
              reason === 'start' ? `Sanad is serving at ${appliance.url} (data: ${dir})` : `Sanad is now serving ${dir} at ${appliance.url}`,
              `Open the GUI with this link (it works once, for 10 minutes; later, \`sanad login-link\` prints a new one): ${loginUrl}`,
              ...lanLines,
            ].join('\n'),
        );
      },
      switching: (from, to) => io.note(`Stopping Sanad on ${from} to open ${to}…`),
      switchFailed: (from, to, error) =>
        io.note(`Sanad could not start on ${to}: ${error instanceof Error ? error.message : String(error)}. Going back to ${from}.`),
    },
  );
  return 0;
}
