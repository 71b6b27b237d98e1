// Which long-running jobs may run together: the one table, read at a glance. A row is the job that
// is asked for, a column the job already running (or waiting ahead of it):
//   together  both run at once;
//   wait      the new job waits until the other has ended, then starts by itself;
//   refuse    the new job is refused at once (the caller says "already running", or attaches).
// Why each `wait`: a backup, its maintenance (forget/prune holds restic's exclusive lock) and a
// passphrase rotation all write the repositories' keys or packs; a drill or restore reading a
// repository that a backup or prune is changing would prove nothing or fail half-way; the vault key
// rotation rewrites the vault a backup copies. Offsite copies are a step of the backup job (they run
// under its lock), not a job of their own. `inspect` reads one generation's store out of a
// repository to look inside it (history/): beside anything that only adds to or reads the
// repository, but not while maintenance prunes the packs it reads or a rotation changes the keys;
// one at a time (generations.ts queues the next; it usually finds the first's copy in the cache).
// A backup asked for while one runs waits for it (`sanad backup now --new`); whether a caller wants
// that or follows the running one instead is the caller's to say (backups.ts attaches by default).
// `pull` downloads a model into the models folder under a temporary name and registers it only at
// its end: it touches nothing any other job reads, so it runs beside all of them; pulls queue
// (one download at a time gets the whole line; a second of the same file is the first: pulls.ts).
export const JOB_KINDS = ['backup', 'maintenance', 'drill', 'restore', 'passphrase-rotation', 'vault-rotation', 'inspect', 'pull'] as const;
export type JobKind = (typeof JOB_KINDS)[number];
export type Overlap = 'together' | 'wait' | 'refuse';

const T = 'together';
const W = 'wait';
const R = 'refuse';

// The table is read as a table (one row per line, columns aligned): the formatter leaves it as it is.
// prettier-ignore
export const OVERLAP: { readonly [K in JobKind]: { readonly [R in JobKind]: Overlap } } = {
  //                     backup  maintenance  drill  restore  passphrase-rotation  vault-rotation  inspect  pull
  'backup':              { backup: W, maintenance: W, drill: T, restore: W, 'passphrase-rotation': W, 'vault-rotation': W, inspect: T, pull: T },
  'maintenance':         { backup: W, maintenance: R, drill: W, restore: W, 'passphrase-rotation': W, 'vault-rotation': T, inspect: W, pull: T },
  'drill':               { backup: W, maintenance: W, drill: R, restore: T, 'passphrase-rotation': W, 'vault-rotation': T, inspect: T, pull: T },
  'restore':             { backup: W, maintenance: W, drill: T, restore: R, 'passphrase-rotation': W, 'vault-rotation': T, inspect: T, pull: T },
  'passphrase-rotation': { backup: R, maintenance: R, drill: W, restore: W, 'passphrase-rotation': R, 'vault-rotation': W, inspect: W, pull: T },
  'vault-rotation':      { backup: W, maintenance: T, drill: T, restore: T, 'passphrase-rotation': W, 'vault-rotation': R, inspect: T, pull: T },
  'inspect':             { backup: T, maintenance: W, drill: T, restore: T, 'passphrase-rotation': W, 'vault-rotation': T, inspect: R, pull: T },
  'pull':                { backup: T, maintenance: T, drill: T, restore: T, 'passphrase-rotation': T, 'vault-rotation': T, inspect: T, pull: W },
};

export function overlap(wanted: JobKind, other: JobKind): Overlap {
  return OVERLAP[wanted][other];
}
