// A small record of the last good backup, kept beside the store but outside it
// (`<data-dir>/backups/last-good.json`): when the store itself is damaged it is what tells the user
// when the last good backup was made and where the local repository lives, so the restore that
// brings the data back can start from a damaged data dir. Holds no secret: names and paths only.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { z } from 'zod/v3';
import { backupsDir, lastGoodPath } from '../files/data-dir-layout.js';

const LastGoodSchema = z.object({
  generation: z.number().int().positive(),
  finished_at: z.number().int(),
  /** The repositories that hold this generation. */
  repositories: z.array(z.object({ name: z.string(), type: z.string() })),
  /** Where the local repository is (it can be moved away from the data dir). */
  local_location: z.string().nullable(),
});
export type LastGood = z.infer<typeof LastGoodSchema>;

/** Replaces the record atomically (a crash leaves the old one or the new one, never half). */
export function writeLastGood(dataDir: string, record: LastGood): void {
  const path = lastGoodPath(dataDir);
  mkdirSync(backupsDir(dataDir), { recursive: true, mode: 0o700 });
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}

export function readLastGood(dataDir: string): LastGood | null {
  try {
    const parsed = LastGoodSchema.safeParse(JSON.parse(readFileSync(lastGoodPath(dataDir), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
