// `sanad serve [--port N] [--host H]`: runs the appliance headless until SIGINT/SIGTERM.
import { parseArgs } from 'node:util';
import { startAppliance } from '../../appliance/appliance.js';
import { usageError } from '../cli-error.js';
import type { Io } from '../io.js';

function parsePort(value: string | undefined): number {
  if (value === undefined) return 7437;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw usageError(`"${value}" is not a port: use a number from 0 to 65535 (0 picks a free one).`);
  return n;
}

export async function serveCommand(args: string[], dataDir: string, io: Io, secretsFile: string | undefined): Promise<number> {
  const { values } = parseArgs({ args, options: { port: { type: 'string' }, host: { type: 'string' } }, strict: true });
  const port = parsePort(values.port ?? process.env.SANAD_PORT);
  const appliance = await startAppliance({
    dataDir,
    port,
    host: values.host ?? process.env.SANAD_HOST ?? '127.0.0.1',
    ...(secretsFile ? { secretsFile } : {}),
  });
  const loginUrl = appliance.loginUrl();
  io.result({ pid: process.pid, port: appliance.port, url: appliance.url, login_url: loginUrl, data_dir: dataDir }, () =>
    [`Sanad is serving at ${appliance.url} (data: ${dataDir})`, `Open the GUI once with this one-time link: ${loginUrl}`].join('\n'),
  );
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  io.note('Stopping Sanad…');
  await appliance.close();
  return 0;
}
