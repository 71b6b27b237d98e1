// One generation as `sanad-<epoch>.tar.gz.age`: a gzip tar of the generation dir WITHOUT the vault
// key (it leaves the machine only inside restic's encryption), encrypted in the age format with a
// passphrase (an scrypt recipient, what `age -p` makes), so the standard `age -d` opens it.
// Everything streams from the files through tar, gzip, age and a hash into a 0600 file in a fresh
// 0700 dir: a large store is never held in memory, and nobody else can read the ciphertext.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { create as createTar } from 'tar';
import { VAULT_KEY_FILE } from '../../repository/generation/vault-key-file.js';

/** age's own default for `age -p`; tests may lower it only to save time. */
export const DEFAULT_SCRYPT_WORK_FACTOR = 18;
const NAME = /^sanad-([1-9][0-9]*)\.tar\.gz\.age$/;

export function copyName(epoch: number): string {
  if (!Number.isSafeInteger(epoch) || epoch <= 0) throw new Error(`A generation epoch is a positive whole number, not ${epoch}.`);
  return `sanad-${epoch}.tar.gz.age`;
}

/** The epoch named by an offsite copy's file name, or null for any other name. */
export function epochOfCopyName(name: string): number | null {
  const m = NAME.exec(name);
  const epoch = m?.[1] === undefined ? NaN : Number(m[1]);
  return Number.isSafeInteger(epoch) ? epoch : null;
}

export interface ArchiveOptions {
  generationDir: string;
  epoch: number;
  passphrase: string;
  /** Parent of the private temp dir. Default: the OS temp dir. */
  tempParent?: string;
  scryptWorkFactor?: number;
  signal?: AbortSignal;
}

export interface Archive {
  /** The private dir holding `path`; remove it with `removeArchive`. */
  dir: string;
  path: string;
  name: string;
  size: number;
  sha256: string;
  /** The files inside the tar, under the folder `sanad-<epoch>/`. */
  files: string[];
}

/** The regular files of a generation dir that may leave the machine: all but the vault key. */
export async function archivableFiles(generationDir: string): Promise<string[]> {
  const entries = await readdir(generationDir, { withFileTypes: true });
  // Only regular files: a symlink could point anywhere (even at a key elsewhere) and a generation
  // dir has no subfolders.
  return entries
    .filter((e) => e.isFile() && e.name !== VAULT_KEY_FILE)
    .map((e) => e.name)
    .sort();
}

export async function createArchive(options: ArchiveOptions): Promise<Archive> {
  if (options.passphrase.length === 0) throw new Error('The offsite copy passphrase is empty.');
  const name = copyName(options.epoch);
  const files = await archivableFiles(options.generationDir);
  const dir = await mkdtemp(join(options.tempParent ?? tmpdir(), 'sanad-offsite-'));
  try {
    // mkdtemp makes 0700 already; chmod again so a permissive umask setup cannot widen it.
    await chmod(dir, 0o700);
    const path = join(dir, name);
    const tarStream = createTar(
      {
        gzip: true,
        cwd: options.generationDir,
        portable: true,
        prefix: `sanad-${options.epoch}`,
        // Belt and braces: the list above already leaves the key out.
        filter: (p) => !p.split('/').includes(VAULT_KEY_FILE),
      },
      files,
    );
    // Loaded here: age and its post-quantum curves (~50 modules) serve only the offsite copy.
    const { Encrypter } = await import('age-encryption');
    const encrypter = new Encrypter();
    encrypter.setScryptWorkFactor(options.scryptWorkFactor ?? DEFAULT_SCRYPT_WORK_FACTOR);
    encrypter.setPassphrase(options.passphrase);
    const encrypted = await encrypter.encrypt(Readable.toWeb(Readable.from(tarStream)));
    const hash = createHash('sha256');
    let size = 0;
    const measure = new Transform({
      transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    // flag 'wx': a new file, never one (or a symlink) someone planted in its place.
    const out = createWriteStream(path, { mode: 0o600, flags: 'wx' });
    await pipeline(Readable.fromWeb(encrypted), measure, out, options.signal ? { signal: options.signal } : {});
    return { dir, path, name, size, sha256: hash.digest('hex'), files: files.map((f) => `sanad-${options.epoch}/${f}`) };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

export async function removeArchive(archive: Pick<Archive, 'dir'>): Promise<void> {
  await rm(archive.dir, { recursive: true, force: true });
}
