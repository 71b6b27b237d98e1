// A damaged store at start: the sentence the user gets names the file, when the last good backup
// was made (from the record kept outside the store, repository/last-good.ts) and the command that
// restores it into a new folder. The damaged file itself is left exactly as it is.
import { readLastGood } from '../repository/last-good.js';
import type { Spoken } from '../contract/said.js';
import { say } from '../contract/said/index.js';
import { shellQuote } from './restore-generation.js';
import { inspectStore, StoreDamagedError } from '../store/store-check.js';
import { storePath } from '../files/data-dir-layout.js';

export function restoreAdvice(dataDir: string): string {
  return restoreAdviceSaid(dataDir).detail;
}

/** Where the last good backup is and how to restore it, as a saying (Diagnostics words it). */
export function restoreAdviceSaid(dataDir: string): Spoken {
  const last = readLastGood(dataDir);
  const dir = shellQuote(dataDir);
  return last
    ? say('restore.advice_last', {
        time: new Date(last.finished_at * 1000).toISOString(),
        generation: last.generation,
        repos: last.repositories.map((r) => r.name).join(', ') || 'local',
        dir,
      })
    : say('restore.advice_none', { dir });
}

/** The same error with the advice added, for errors SQLite raised deeper down. */
export function withRestoreAdvice(err: StoreDamagedError, dataDir: string): StoreDamagedError {
  return err.advice ? err : new StoreDamagedError(err.path, err.reason, restoreAdvice(dataDir));
}

/** Before anything writes to the store: refuse a damaged one, with what to do. */
export function assertStoreWhole(dataDir: string): void {
  const path = storePath(dataDir);
  const found = inspectStore(path);
  if (found.state === 'damaged') throw new StoreDamagedError(path, found.reason, restoreAdvice(dataDir));
}
