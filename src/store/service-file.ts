// <data-dir>/service.json: how other programs (the CLI, scripts) find a running service.
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ServiceInfo {
  pid: number;
  port: number;
  url: string;
}

export function serviceFilePath(dataDir: string): string {
  return join(dataDir, 'service.json');
}

/** Written whole or not at all (temp file + rename). */
export function writeServiceFile(dataDir: string, info: ServiceInfo): void {
  const tmp = serviceFilePath(dataDir) + '.tmp';
  writeFileSync(tmp, JSON.stringify(info, null, 2) + '\n', { mode: 0o600 });
  renameSync(tmp, serviceFilePath(dataDir));
}

export function removeServiceFile(dataDir: string): void {
  rmSync(serviceFilePath(dataDir), { force: true });
}
