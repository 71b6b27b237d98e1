// `mkdir -p` for paths a person typed (a restore target, a repository's folder, a data dir). Node's
// own recursive mkdir never returns for some paths: under /proc (`/proc/nope/x`), where the kernel
// answers ENOENT for the parent it just "made", it retries forever in the thread pool, so a restore
// into such a folder showed "Working…" for good and nothing could stop it. Here each missing folder
// is made by a plain mkdir, from the deepest one that exists down, so every failure is an error.
import { mkdirSync, statSync, type Mode } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** The folders to make, outermost first, below the deepest existing ancestor of `path`. */
function missing(path: string, exists: (p: string) => boolean): string[] {
  const abs = resolve(path);
  let base = abs;
  while (!exists(base)) {
    const up = dirname(base);
    if (up === base) break;
    base = up;
  }
  const rest = relative(base, abs);
  if (rest === '') return [];
  const parts = rest.split(sep);
  return parts.map((_, i) => join(base, ...parts.slice(0, i + 1)));
}

const exists = (p: string): boolean => statSync(p, { throwIfNoEntry: false }) !== undefined;

/** Makes `path` and its missing parents; the first folder it made (as mkdir -p), or null if all existed. */
export async function makeDirs(path: string, mode: Mode = 0o700): Promise<string | null> {
  // The walk up is a few synchronous stats; each mkdir below is one awaited call.
  const todo = missing(path, exists);
  for (const dir of todo) {
    try {
      await mkdir(dir, { mode });
    } catch (err) {
      // Made meanwhile by someone else: fine if it is a folder now.
      if (!(err instanceof Error && 'code' in err && err.code === 'EEXIST' && (await stat(dir)).isDirectory())) throw err;
    }
  }
  return todo[0] ?? null;
}

/** makeDirs, synchronously. */
export function makeDirsSync(path: string, mode: Mode = 0o700): string | null {
  const todo = missing(path, exists);
  for (const dir of todo) {
    try {
      mkdirSync(dir, { mode });
    } catch (err) {
      if (!(err instanceof Error && 'code' in err && err.code === 'EEXIST' && statSync(dir).isDirectory())) throw err;
    }
  }
  return todo[0] ?? null;
}
