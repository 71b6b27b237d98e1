// `restic key list|add|remove`, for passphrase rotation (issue 5): add the new key, prove it opens
// the repository, persist it, and only then remove the old one. The new password travels in its
// own 0600 file (`--new-password-file`), like the current one.
import { say } from '../../contract/said/index.js';
import { runRestic, secretDirFor, type ResticRuntime } from './run.js';
import { ResticError } from './errors.js';
import { keyList, type ResticKey } from './messages.js';
import { withSecretFile } from '../../process/spawn.js';
import type { ResticRepo } from './repo.js';

export type { ResticKey } from './messages.js';

export async function listKeys(rt: ResticRuntime, repo: ResticRepo, options: { signal?: AbortSignal } = {}): Promise<ResticKey[]> {
  const seen: { keys?: ResticKey[] } = {};
  await runRestic(rt, repo, {
    args: ['key', 'list'],
    json: true,
    signal: options.signal,
    onJson: (value) => {
      const parsed = keyList.safeParse(value);
      if (parsed.success) seen.keys = parsed.data;
      return parsed.success;
    },
  });
  if (seen.keys === undefined) throw new ResticError('failed', say('restic.no_key_list', { repo: repo.name }));
  return seen.keys;
}

/** Adds `newPassword` as a key and returns the new key's id, found by opening the repository with it. */
export async function addKey(rt: ResticRuntime, repo: ResticRepo, newPassword: string, options: { signal?: AbortSignal } = {}): Promise<string> {
  await withSecretFile(
    newPassword,
    (file) => runRestic(rt, repo, { args: ['key', 'add', `--new-password-file=${file}`], json: false, signal: options.signal, secrets: [newPassword] }),
    // In the data dir, not the system temp dir: a SIGKILL here leaves the new passphrase where
    // the next start clears it (clearSecretFiles), never in /tmp.
    { dir: secretDirFor(rt) },
  );
  const keys = await listKeys(rt, { ...repo, password: newPassword }, options);
  const mine = keys.find((k) => k.current);
  if (!mine) throw new ResticError('failed', say('restic.key_not_current', { repo: repo.name }));
  return mine.id;
}

/** Removes a key by id; restic refuses to remove the key the password opens (remove old keys with the new password). */
export async function removeKey(rt: ResticRuntime, repo: ResticRepo, id: string, options: { signal?: AbortSignal } = {}): Promise<void> {
  if (!/^[0-9a-f]{8,64}$/.test(id)) throw new Error(`"${id}" is not a restic key id.`);
  await runRestic(rt, repo, { args: ['key', 'remove', id], json: false, signal: options.signal });
}
