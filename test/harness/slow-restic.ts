// A restic that moves data at a fixed rate, for tests that measure progress *while* restic works.
// On a fast machine a 100 MB backup or restore ends between two progress reports, so a test that
// wants several reports would pass or fail with the machine's speed; restic's own bandwidth limits
// (which apply to the local backend too) make the run take seconds everywhere.
import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './data-dir.js';

/** The path of a script that runs the installed restic limited to `kibPerSecond` up and down. */
export function slowRestic(kibPerSecond: number): string {
  // Sanad probes "restic version" with a minimal environment, so the script names restic by its full path.
  const real = execFileSync('sh', ['-c', 'command -v restic'], { encoding: 'utf8' }).trim();
  const path = join(tempDir('sanad-slow-restic-'), 'restic');
  writeFileSync(path, `#!/bin/sh\nexec ${real} --limit-upload ${kibPerSecond} --limit-download ${kibPerSecond} "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}
