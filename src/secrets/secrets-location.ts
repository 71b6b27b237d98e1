// Where a data dir's master secrets live, written beside its store (never inside it, so a backup
// or a restored copy does not carry it): `<data-dir>/secrets-location.json`, no secret in it.
// Absent means the OS keychain, as every data dir before the secrets-file fallback. Every command
// reads it, so `sanad backup now` finds the file that `npm start` chose without being told again.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { homedir, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod/v3';
import { secretsLocationPath } from '../files/data-dir-layout.js';

// `moved_from`: the file the secrets were moved out of, so a move killed after its record (the
// file still holds them) is finished by running it again.
const LocationSchema = z.union([
  z.object({ kind: z.literal('keychain'), moved_from: z.string().min(1).optional() }),
  z.object({ kind: z.literal('file'), path: z.string().min(1) }),
]);
export type SecretsLocation = z.infer<typeof LocationSchema>;

export function readSecretsLocation(dataDir: string): SecretsLocation | null {
  try {
    const parsed = LocationSchema.safeParse(JSON.parse(readFileSync(secretsLocationPath(dataDir), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The secrets file this data dir's record names, if its secrets are kept in one. */
export function recordedSecretsFile(dataDir: string): string | undefined {
  const recorded = readSecretsLocation(dataDir);
  return recorded?.kind === 'file' ? recorded.path : undefined;
}

/** Atomic: a crash leaves the old record or the new one, never half of one. */
export function writeSecretsLocation(dataDir: string, location: SecretsLocation): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = secretsLocationPath(dataDir);
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(location)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}

/** The quick start's secrets file: the user's config folder, outside any data dir. */
export function defaultSecretsFilePath(env: NodeJS.ProcessEnv = process.env, os: NodeJS.Platform = platform()): string {
  if (os === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'Sanad', 'secrets');
  if (os === 'darwin') return join(homedir(), 'Library', 'Preferences', 'Sanad', 'secrets');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'sanad', 'secrets');
}

/** Makes the file (0600, empty) in a 0700 folder unless it exists; an existing one is left alone. */
export function createSecretsFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  chmodSync(dirname(path), 0o700);
  if (existsSync(path)) return;
  // 'wx': never over a file someone else made meanwhile; the mode is set at creation.
  const fd = openSync(path, 'wx', 0o600);
  try {
    writeSync(fd, '{}\n');
  } finally {
    closeSync(fd);
  }
  chmodSync(path, 0o600);
}
