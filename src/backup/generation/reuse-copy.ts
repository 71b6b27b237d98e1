// The store copy of the last generation, kept for the next one when nothing but Sanad's records of
// its own backups was written since (store/content-mark.ts). A generation's files never change
// once it is whole, so the new generation links to the same file; before that file counts, its
// bytes are hashed again and must give the sha256 the last manifest recorded. Anything else
// (another connection, a restart, a new vault key, a file that is gone or differs) copies afresh.
import { createHash } from 'node:crypto';
import { link, rm } from 'node:fs/promises';
import { hashInChunks } from '../../files/hash-chunks.js';
import { sameContent, type ContentMark } from '../../store/content-mark.js';
import type { Db } from '../../store/open.js';

interface LastCopy {
  mark: ContentMark;
  /** The store copy inside the last whole generation. */
  path: string;
  sha256: string;
  tables: number;
  /** sha256 of the vault key that generation was checked with (the key itself is not kept). */
  keyHash: string;
}

/** Per connection: a mark means nothing to another one. */
const lastCopies = new WeakMap<Db, LastCopy>();

const keyHashOf = (key: Buffer): string => createHash('sha256').update(key).digest('hex');

/** After a generation is whole: its store copy is the one the next run may keep. */
export function rememberCopy(db: Db, copy: { mark: ContentMark; path: string; sha256: string; tables: number; vaultKey: Buffer }): void {
  lastCopies.set(db, { mark: copy.mark, path: copy.path, sha256: copy.sha256, tables: copy.tables, keyHash: keyHashOf(copy.vaultKey) });
}

/**
 * Links the last generation's store copy to `dest` when the content is unchanged since it was made
 * and its bytes still hash to what its manifest says; otherwise null, and `dest` does not exist.
 */
export async function reuseCopy(
  db: Db,
  mark: ContentMark,
  vaultKey: Buffer,
  dest: string,
): Promise<{ tables: number; storeHash: Promise<{ sha256: string; bytes: number }> } | null> {
  const last = lastCopies.get(db);
  if (!last || !sameContent(last.mark, mark) || last.keyHash !== keyHashOf(vaultKey)) return null;
  try {
    await link(last.path, dest);
  } catch {
    // Gone (pruned by hand, a restored data dir) or a file system without links: copy afresh.
    return null;
  }
  // On this thread, a chunk at a time: starting a worker would cost more than hashing a small store.
  const hashed = await hashInChunks(dest).catch(() => null);
  if (hashed?.sha256 !== last.sha256) {
    await rm(dest, { force: true });
    return null;
  }
  return { tables: last.tables, storeHash: Promise.resolve(hashed) };
}
