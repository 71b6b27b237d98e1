// A data dir that served, answered one response, was backed up, and then had its store damaged
// the way a failing disk does it (every b-tree page header after the first overwritten).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { field, str } from '../harness/api.js';
import { prepareDataDir } from '../harness/data-dir.js';
import { startServiceProcess } from '../harness/service-process.js';
import { runCli } from '../cli/run-cli.js';
import { storePath } from '../../src/files/data-dir-layout.js';

export const sha = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Overwrites the header of every b-tree page after the first: the file opens, its pages do not read. */
export function damagePages(path: string): void {
  const pages = Math.floor(statSync(path).size / 4096);
  const fd = openSync(path, 'r+');
  try {
    for (let p = 1; p < pages; p++) writeSync(fd, Buffer.alloc(12, 0xee), 0, 12, p * 4096);
  } finally {
    closeSync(fd);
  }
}

export interface DamagedDataDir {
  dataDir: string;
  adminToken: string;
  responseId: string;
  text: string;
  generation: number;
  store: string;
  /** sha256 of the damaged file, to prove nothing wrote to it. */
  damagedSha: string;
}

export async function damagedDataDirWithBackup(): Promise<DamagedDataDir> {
  const { dataDir, adminToken } = await prepareDataDir();
  const first = await startServiceProcess(dataDir, adminToken);
  try {
    const created = await first.api.post('/v1/responses', { model: 'tiny', input: 'remember me', max_output_tokens: 8 });
    assert.equal(created.status, 200, created.text);
    assert.equal(await first.stop(), 0);
    const backup = await runCli(['backup', 'now', '--data-dir', dataDir, '--json'], 120_000);
    assert.equal(backup.code, 0, backup.stderr);
    const store = storePath(dataDir);
    damagePages(store);
    return {
      dataDir,
      adminToken,
      store,
      damagedSha: sha(store),
      responseId: str(created.body, 'id'),
      text: str(created.body, 'output', 0, 'content', 0, 'text'),
      generation: Number(field(JSON.parse(backup.stdout), 'generation')),
    };
  } finally {
    await first.kill();
  }
}
