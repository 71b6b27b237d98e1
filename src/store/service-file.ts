// <data-dir>/service.json: how other programs (the CLI, scripts) find a running service.
import { createHmac } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

import { serviceFilePath } from '../files/data-dir-layout.js';

export interface ServiceInfo {
  pid: number;
  port: number;
  url: string;
  /** Hex. Only the service and whoever may read this file (0600) know it: service-proof.ts. */
  proof_key: string;
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

/**
 * The answer to a CLI's challenge: HMAC-SHA256 of the nonce under the run's proof key. A program
 * that took the port of a service that died cannot give it, so the CLI sends it no token.
 */
export function proofFor(key: Buffer, nonce: string): string {
  return createHmac('sha256', key).update(`sanad-service-proof:${nonce}`).digest('hex');
}

/** service.json as written, or null when it is absent, half-written or from an older Sanad. */
export function readServiceFile(dataDir: string): ServiceInfo | null {
  try {
    const info: unknown = JSON.parse(readFileSync(serviceFilePath(dataDir), 'utf8'));
    if (typeof info !== 'object' || info === null) return null;
    const { pid, port, url, proof_key: key } = { pid: null, port: null, url: null, proof_key: null, ...info };
    if (typeof pid !== 'number' || typeof port !== 'number' || typeof url !== 'string' || typeof key !== 'string' || !/^[0-9a-f]{64}$/.test(key)) return null;
    return { pid, port, url, proof_key: key };
  } catch {
    return null;
  }
}
