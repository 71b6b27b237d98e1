// The explicit opt-in for headless servers without a Secret Service: a JSON file of secrets, used
// only if it is a regular file owned by this user with mode 0600 (no group or other access), in a
// folder of this user's with mode 0700. Its
// risk: anyone who can read it as this user (or root, or a backup of the disk) has every secret.
import { closeSync, fsyncSync, lstatSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { SecretsFileUnsafeError } from './errors.js';
import { dataDirScope } from './scope.js';
import type { SecretStore } from './secret-store.js';

export class SecretsFileStore implements SecretStore {
  readonly kind = 'file';
  readonly description: string;

  constructor(
    readonly path: string,
    private readonly scope: string,
  ) {
    this.description = `the secrets file ${path}`;
  }

  private check(): void {
    let info;
    try {
      info = lstatSync(this.path);
    } catch {
      throw new SecretsFileUnsafeError(this.path, 'it does not exist');
    }
    if (!info.isFile()) throw new SecretsFileUnsafeError(this.path, 'it is not a regular file');
    if (typeof process.getuid === 'function' && info.uid !== process.getuid()) {
      throw new SecretsFileUnsafeError(this.path, 'it is owned by another user');
    }
    if ((info.mode & 0o077) !== 0) throw new SecretsFileUnsafeError(this.path, `its mode is ${(info.mode & 0o777).toString(8)}, not 600`);
    // A 0600 file in a folder others can write is one they can replace (rename over it) or, in a
    // folder they can list and enter, watch: the folder must be this user's and 0700.
    const folder = dirname(this.path);
    const dir = statSync(folder);
    if (typeof process.getuid === 'function' && dir.uid !== process.getuid())
      throw new SecretsFileUnsafeError(this.path, `its folder ${folder} is owned by another user`);
    if ((dir.mode & 0o077) !== 0)
      throw new SecretsFileUnsafeError(
        this.path,
        `its folder ${folder} has mode ${(dir.mode & 0o777).toString(8)}, not 700 (chmod 700 ${folder}, or keep the file in a folder only you can open)`,
      );
  }

  private read(): Record<string, string> {
    this.check();
    const text = readFileSync(this.path, 'utf8');
    if (text.trim() === '') return {};
    const parsed: unknown = JSON.parse(text);
    const out: Record<string, string> = {};
    if (typeof parsed === 'object' && parsed !== null) {
      for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') out[k] = v;
    }
    return out;
  }

  /** Whole file or nothing: a temp file with the same mode, fsynced, renamed over. */
  private write(all: Record<string, string>): void {
    const tmp = `${this.path}.tmp`;
    // A leftover temp file (a crash mid-write) may have any mode: never write a secret into it.
    rmSync(tmp, { force: true });
    const fd = openSync(tmp, 'wx', 0o600);
    try {
      writeSync(fd, JSON.stringify(all, null, 2) + '\n');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.path);
  }

  private key(name: string): string {
    return `${name}@${this.scope}`;
  }

  async get(name: string): Promise<string | null> {
    return this.read()[this.key(name)] ?? null;
  }

  async set(name: string, value: string): Promise<void> {
    this.write({ ...this.read(), [this.key(name)]: value });
  }

  async delete(name: string): Promise<boolean> {
    const all = this.read();
    if (!(this.key(name) in all)) return false;
    delete all[this.key(name)];
    this.write(all);
    return true;
  }

  async probe(): Promise<void> {
    this.read();
  }

  /** Every name this file holds for any data dir (to tell whether removing ours empties it). */
  scopesLeft(): number {
    return Object.keys(this.read()).filter((k) => !k.endsWith(`@${this.scope}`)).length;
  }

  forDataDir(dataDir: string): SecretStore {
    return new SecretsFileStore(this.path, dataDirScope(dataDir));
  }
}
