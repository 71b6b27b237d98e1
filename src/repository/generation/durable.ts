// Writes that survive a power cut: data fsynced before it is named, names fsynced in their folder.
// A generation counts as whole only once its folder is renamed, so every byte must be on disk first.
import { chmod, open, writeFile } from 'node:fs/promises';

/** fsync of a file or a directory (a directory's fsync makes the names in it durable). */
export async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Creates `path` (refusing to replace a file) with exactly `mode`, writes `data` and fsyncs it. */
export async function writeNewFileDurable(path: string, data: string | Buffer, mode = 0o600): Promise<void> {
  // 'wx': a leftover file here means two runs share a folder, which must never happen silently.
  await writeFile(path, data, { flag: 'wx', mode });
  // The umask may have changed the mode at creation; the mode is part of the promise (vault.key).
  await chmod(path, mode);
  await fsyncPath(path);
}
