// A real small file system for fault tests: a tmpfs of a few MB mounted (as root, as CI runs)
// on a fresh folder, filled to the last byte with a ballast file and freed again. Where no tmpfs
// can be mounted (not root, no mount permission) the caller skips with the reason this returns.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SmallDisk {
  path: string;
  /** Writes ballast until the file system refuses another byte (ENOSPC). */
  fill(): void;
  /** Removes the ballast: the space is back. */
  free(): void;
  freeBytes(): number;
  unmount(): void;
}

const mounted = new Set<string>();
process.once('exit', () => {
  for (const path of mounted) {
    try {
      execFileSync('umount', ['-l', path], { stdio: 'ignore' });
      rmSync(path, { recursive: true, force: true });
    } catch {
      // best effort at exit
    }
  }
});

/** Mounts a tmpfs of `mib` MiB, or returns why it cannot (the test then skips, saying so). */
export function mountSmallDisk(mib: number): SmallDisk | string {
  if (process.getuid?.() !== 0) return 'mounting a small tmpfs needs root (CI runs as root)';
  const path = mkdtempSync(join(tmpdir(), 'sanad-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${mib}m,mode=0700`, 'tmpfs', path], { stdio: 'pipe' });
  } catch (err) {
    rmSync(path, { recursive: true, force: true });
    return `no tmpfs could be mounted here (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`;
  }
  mounted.add(path);
  const ballast = join(path, 'ballast');
  let n = 0;
  return {
    path,
    fill: () => {
      // Big pieces first, then single pages, so not even a page is left over.
      for (const size of [1024 * 1024, 4096, 512]) {
        const fd = openSync(join(path, `ballast-${n++}`), 'w');
        const chunk = Buffer.alloc(size, 0x5a);
        try {
          for (;;) writeSync(fd, chunk);
        } catch (err) {
          if (!(err instanceof Error && 'code' in err && err.code === 'ENOSPC')) throw err;
        } finally {
          closeSync(fd);
        }
      }
    },
    free: () => {
      for (let i = 0; i < n; i++) rmSync(`${ballast}-${i}`, { force: true });
      n = 0;
    },
    freeBytes: () => {
      const s = statfsSync(path);
      return s.bavail * s.bsize;
    },
    unmount: () => {
      execFileSync('umount', ['-l', path], { stdio: 'ignore' });
      mounted.delete(path);
      rmSync(path, { recursive: true, force: true });
    },
  };
}
