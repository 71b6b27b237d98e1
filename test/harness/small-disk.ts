// A real small file system for fault tests: a tmpfs of a few MB mounted (as root, as CI runs)
// on a fresh folder, filled to the last byte with a ballast file and freed again. Where no tmpfs
// can be mounted (not root, no mount permission) the caller skips with the reason this returns.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SmallDisk {
  path: string;
  /** Writes ballast until the file system refuses another byte (ENOSPC), then frees about
   *  `leaveBytes` again (whole MiB pieces) when asked to leave some room. */
  fill(leaveBytes?: number): void;
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
    fill: (leaveBytes = 0) => {
      // 1 MiB pieces first (each its own file, so some can be given back), then single pages,
      // so not even a page is left over.
      const mib: string[] = [];
      const write = (file: string, size: number, once: boolean): boolean => {
        const fd = openSync(file, 'w');
        const chunk = Buffer.alloc(size, 0x5a);
        try {
          do writeSync(fd, chunk);
          while (!once);
          return true;
        } catch (err) {
          if (!(err instanceof Error && 'code' in err && err.code === 'ENOSPC')) throw err;
          return false;
        } finally {
          closeSync(fd);
        }
      };
      for (;;) {
        const file = `${ballast}-${n++}`;
        mib.push(file);
        if (!write(file, 1024 * 1024, true)) break;
      }
      for (const size of [4096, 512]) write(`${ballast}-${n++}`, size, false);
      for (let left = leaveBytes; left > 0 && mib.length > 0; left -= 1024 * 1024) rmSync(mib.pop() ?? '', { force: true });
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
