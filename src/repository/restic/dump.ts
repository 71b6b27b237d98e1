// `restic dump <snapshot> <path>`: one small text file of a snapshot (manifest.json, vault.key)
// read straight into memory, so a drill or a restore can look at it without writing it to disk.
// Text only: stdout arrives line by line; a file longer than `maxBytes` is refused, not truncated.
import { say } from '../../contract/said/index.js';
import { ResticError } from './errors.js';
import { runRestic, type ResticRuntime } from './run.js';
import { assertSnapshotId } from './restore.js';
import type { ResticRepo } from './repo.js';

export async function dumpText(
  rt: ResticRuntime,
  repo: ResticRepo,
  snapshotId: string,
  path: string,
  options: { maxBytes?: number; signal?: AbortSignal } = {},
): Promise<string> {
  assertSnapshotId(snapshotId);
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
  const lines: string[] = [];
  let bytes = 0;
  await runRestic(rt, repo, {
    args: ['dump', snapshotId, path],
    json: false,
    signal: options.signal,
    onLine: (line) => {
      bytes += Buffer.byteLength(line) + 1;
      if (bytes <= maxBytes) lines.push(line);
      return true;
    },
  });
  if (bytes > maxBytes) {
    throw new ResticError('failed', say('restic.dump_too_large', { path, snapshot: snapshotId, repo: repo.name, max: maxBytes }));
  }
  return lines.join('\n');
}
