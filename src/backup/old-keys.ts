// Restic keys that a passphrase rotation (or an undone one) left behind and that Sanad still has to
// remove. Each record names the key that must stay (the one the current passphrase opens); a record
// whose "keep" key is not the current one belongs to a rotation that never persisted and is dropped
// unused, so a crash at any point can never make Sanad remove the key it still needs.
// Records live in `service_config` (`restic_old_keys:<repository>`); removal is retried at the start
// of every rotation and after every backup run of the service (jobs/backups.ts).
import { say } from '../contract/said/index.js';
import { z } from 'zod/v3';
import type { Clock } from '../clock.js';
import { unixSeconds } from '../clock.js';
import type { Logger } from '../log/logger.js';
import type { Vault } from '../secrets/vault.js';
import type { Db } from '../store/open.js';
import { readConfigValue, writeConfigValue } from '../store/settings.js';
import { raiseAlert, resolveAlert } from '../store/alerts.js';
import { getRepository } from '../repository/repositories.js';
import type { Restic } from '../repository/restic/index.js';
import { toResticRepo } from '../repository/restic-target.js';

export const OLD_KEY_ALERT = 'backup.old_key_not_removed';
const PREFIX = 'restic_old_keys:';

const OldKeysSchema = z.object({ remove: z.array(z.string()), keep: z.string() });
export type OldKeys = z.infer<typeof OldKeysSchema>;

export interface OldKeysDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  restic: Restic;
  vault: Vault;
}

/** restic prints short key ids (8 hex) and accepts any unique prefix: compare by prefix. */
export function sameKey(a: string, b: string): boolean {
  return a.length > 0 && b.length > 0 && (a.startsWith(b) || b.startsWith(a));
}

export function oldKeysOf(db: Db, repository: string): OldKeys | null {
  const raw = readConfigValue(db, PREFIX + repository);
  if (raw === undefined) return null;
  const parsed = OldKeysSchema.safeParse(safeJson(raw));
  return parsed.success ? parsed.data : null;
}

/** Records keys to remove; one record per repository, merged when it keeps the same key. */
export function recordOldKeys(db: Db, clock: Clock, repository: string, value: OldKeys): void {
  const existing = oldKeysOf(db, repository);
  const remove = existing && sameKey(existing.keep, value.keep) ? [...new Set([...existing.remove, ...value.remove])] : value.remove;
  writeConfigValue(db, PREFIX + repository, JSON.stringify({ remove, keep: value.keep }), unixSeconds(clock));
}

export function forgetOldKeys(db: Db, repository: string): void {
  db.prepare('DELETE FROM service_config WHERE key = ?').run(PREFIX + repository);
}

export function pendingOldKeys(db: Db): Array<{ repository: string } & OldKeys> {
  const rows = db
    .prepare<[number, string], { key: string; value: string }>('SELECT key, value FROM service_config WHERE substr(key, 1, ?) = ? ORDER BY key')
    .all(PREFIX.length, PREFIX);
  return rows.flatMap((row) => {
    const parsed = OldKeysSchema.safeParse(safeJson(row.value));
    return parsed.success ? [{ repository: row.key.slice(PREFIX.length), ...parsed.data }] : [];
  });
}

/**
 * Removes every recorded old key it can, opening each repository with `passphrase` (the current
 * one). Returns, per repository that had a record, null when it is clean now or the error. Raises
 * or resolves the `backup.old_key_not_removed` alert to match what is left.
 */
export async function removeOldKeys(deps: OldKeysDeps, passphrase: string, options: { signal?: AbortSignal } = {}): Promise<Map<string, string | null>> {
  const { db, clock, logger, restic } = deps;
  const results = new Map<string, string | null>();
  for (const record of pendingOldKeys(db)) {
    const repo = getRepository(db, record.repository);
    if (!repo) {
      forgetOldKeys(db, record.repository);
      continue;
    }
    const target = toResticRepo(repo, deps.vault, passphrase);
    try {
      const keys = await restic.listKeys(target, options);
      const current = keys.find((k) => k.current);
      if (!current || !sameKey(current.id, record.keep)) {
        // The rotation that wrote this record never became current (a crash before the persist).
        logger.info('old-key record dropped: its rotation never took effect', { repository: repo.name });
        forgetOldKeys(db, repo.name);
        continue;
      }
      for (const id of record.remove) {
        if (sameKey(id, current.id) || !keys.some((k) => sameKey(k.id, id))) continue;
        await restic.removeKey(target, id, options);
        logger.info('old restic key removed', { repository: repo.name, key: id });
      }
      forgetOldKeys(db, repo.name);
      results.set(repo.name, null);
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      logger.warn('an old restic key could not be removed', { repository: repo.name, error });
      results.set(repo.name, error);
    }
  }
  const left = pendingOldKeys(db).map((r) => r.repository);
  if (left.length > 0) {
    raiseAlert(db, clock, OLD_KEY_ALERT, 'warning', say('alert.old_key', { count: left.length, repos: left.map((n) => `"${n}"`).join(', ') }));
  } else {
    resolveAlert(db, clock, OLD_KEY_ALERT);
  }
  return results;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
