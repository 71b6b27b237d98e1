// A restic that records how it was called: a tiny sh wrapper around the real binary that appends
// each argv to a log, and the sha256 of AWS_SECRET_ACCESS_KEY when set (proof that the secret
// reached the child's environment, without writing the secret itself anywhere), then execs restic.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { findRestic } from '../../../src/repository/restic/index.js';
import { tempDir } from '../../harness/data-dir.js';

export interface ResticSpy {
  /** Give this to findRestic({configuredPath}). */
  path: string;
  /** One line per invocation: its argv joined by spaces. */
  argv(): string[];
  /** One sha256 hex per invocation that had AWS_SECRET_ACCESS_KEY. */
  secretHashes(): string[];
}

function lines(file: string): string[] {
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
    : [];
}

export async function resticSpy(): Promise<ResticSpy> {
  const real = (await findRestic()).path;
  const dir = tempDir('sanad-restic-spy-');
  const argvLog = join(dir, 'argv.log');
  const envLog = join(dir, 'env.log');
  const path = join(dir, 'restic');
  // Paths are from mkdtemp under tmpdir: no quotes or spaces to escape.
  writeFileSync(
    path,
    [
      '#!/bin/sh',
      `printf '%s\\n' "$*" >> '${argvLog}'`,
      `if [ -n "$AWS_SECRET_ACCESS_KEY" ]; then printf '%s' "$AWS_SECRET_ACCESS_KEY" | sha256sum | cut -d' ' -f1 >> '${envLog}'; fi`,
      `exec '${real}' "$@"`,
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return { path, argv: () => lines(argvLog), secretHashes: () => lines(envLog) };
}
