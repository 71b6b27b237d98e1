// A damaged store at start: the sentence the user gets names the file, when the last good backup
// was made (from the record kept outside the store, backup/last-good.ts) and the command that
// restores it into a new folder. The damaged file itself is left exactly as it is.
import { readLastGood } from '../backup/last-good.js';
import { shellQuote } from './restore-generation.js';
import { storePath } from '../store/open.js';
import { inspectStore, StoreDamagedError } from '../store/store-check.js';

export function restoreAdvice(dataDir: string): string {
  const last = readLastGood(dataDir);
  const dir = shellQuote(dataDir);
  const when = last
    ? `The last good backup was made ${new Date(last.finished_at * 1000).toISOString().replace('T', ' ').slice(0, 16)} UTC (generation ${last.generation}, in ${last.repositories.map((r) => r.name).join(', ') || 'local'}).`
    : `Sanad has no record of a good backup beside it; \`sanad restore --list --data-dir ${dir}\` shows what the local repository holds.`;
  return `${when} Restore it into a new folder with \`sanad restore --data-dir ${dir} --target NEW_FOLDER\`, then start Sanad on that folder (\`sanad serve --data-dir NEW_FOLDER\`).`;
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
