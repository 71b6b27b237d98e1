// Secrets reach a child through its environment or through a file only its owner can read.
// `withSecretFile` writes the value into a 0600 file inside a fresh 0700 directory and removes
// both when `fn` settles, whether it resolved or threw, so no secret outlives the call.
import { mkdtemp, rm, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function withSecretFile<T>(value: string, fn: (path: string) => Promise<T>, options: { dir?: string } = {}): Promise<T> {
  const dir = await mkdtemp(join(options.dir ?? tmpdir(), 'sanad-secret-'));
  try {
    // mkdtemp already makes 0700 on POSIX; chmod again so a permissive umask setup cannot widen it.
    await chmod(dir, 0o700);
    const path = join(dir, 'secret');
    // flag 'wx': the file is new, never a pre-existing file or symlink someone planted.
    await writeFile(path, value, { mode: 0o600, flag: 'wx' });
    return await fn(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
