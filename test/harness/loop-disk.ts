// A real external disk for tests: an ext4 image on a loop device, mounted (as root, as CI runs) on
// a fresh folder, unmounted and mounted again as a person unplugs and plugs a USB disk. Where no
// loop device can be mounted the caller skips with the reason this returns.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LoopDisk {
  /** Where the disk is mounted while it is connected (the folder stays, empty, while it is not). */
  mountPoint: string;
  connect(): void;
  disconnect(): void;
  /** Unmounts (if mounted) and removes the image and the mount point. */
  remove(): void;
}

const live = new Set<LoopDisk>();
process.once('exit', () => {
  for (const disk of live) {
    try {
      disk.remove();
    } catch {
      // best effort at exit
    }
  }
});

const run = (cmd: string, args: string[]): void => {
  execFileSync(cmd, args, { stdio: 'pipe' });
};

/** Makes and mounts an ext4 disk of `mib` MiB, or returns why it cannot (the test then skips). */
export function makeLoopDisk(mib: number): LoopDisk | string {
  if (process.getuid?.() !== 0) return 'mounting a loop device needs root (CI runs as root)';
  const home = mkdtempSync(join(tmpdir(), 'sanad-loop-disk-'));
  const image = join(home, 'disk.img');
  const mountPoint = join(home, 'mnt');
  let mounted = false;
  const disk: LoopDisk = {
    mountPoint,
    connect: () => {
      run('mount', ['-o', 'loop', image, mountPoint]);
      mounted = true;
    },
    disconnect: () => {
      run('umount', [mountPoint]);
      mounted = false;
    },
    remove: () => {
      if (mounted) disk.disconnect();
      live.delete(disk);
      rmSync(home, { recursive: true, force: true });
    },
  };
  try {
    run('truncate', ['-s', `${mib}M`, image]);
    run('mkfs.ext4', ['-q', '-F', image]);
    run('mkdir', [mountPoint]);
    disk.connect();
  } catch (err) {
    rmSync(home, { recursive: true, force: true });
    return `no loop device could be mounted here (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`;
  }
  live.add(disk);
  return disk;
}
