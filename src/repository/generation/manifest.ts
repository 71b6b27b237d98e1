// The manifest of a generation (manifest.json, written last): what the generation holds and the
// fingerprint of each item, so a drill or a restore can prove every file is whole.
import { isAbsolute } from 'node:path';
import { z } from 'zod/v3';

export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_FORMAT_VERSION = 1;
/** The tags every generation's restic snapshot carries: what a restore and a drill look for. */
export const SNAPSHOT_TAGS = ['sanad'] as const;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 is 64 lowercase hex digits');
const size = z.number().int().nonnegative();

const SqliteItem = z.object({
  kind: z.literal('sqlite'),
  /** Relative to the generation dir. */
  path: z.string().min(1),
  size,
  sha256,
  /** Tables in the copy: zero is damage unless the source had none (the drill reads this). */
  tables: z.number().int().nonnegative(),
});

const VaultKeyItem = z.object({
  kind: z.literal('vault_key'),
  path: z.string().min(1),
  size,
  sha256,
});

const ModelItem = z.object({
  kind: z.literal('model'),
  /** Absolute: models are backed up from where the user keeps them, never copied into staging. */
  path: z.string().refine(isAbsolute, 'a model path is absolute'),
  size,
  sha256,
  model_id: z.string().min(1),
});

/** A pulled model whose bytes the user chose to leave out of backups: where to get it again and
 *  what it must hash to. A restore pulls it from there and verifies it (restore/pull-left-out.ts). */
const ModelSourceItem = z.object({
  kind: z.literal('model_source'),
  /** Where the file was on the machine backed up (not in the snapshot). */
  path: z.string().refine(isAbsolute, 'a model path is absolute'),
  model_id: z.string().min(1),
  uri: z.string().min(1),
  url: z.string().url(),
  revision: z.string().nullable(),
  file_name: z
    .string()
    .min(1)
    .refine((n) => !n.includes('/') && !n.includes('\\') && n !== '..' && n !== '.', 'a file name, not a path'),
  size,
  sha256,
});

/** The deletion journal as it was when the generation was made (store/deletion-journal.ts). */
const JournalItem = z.object({
  kind: z.literal('journal'),
  path: z.string().min(1),
  size,
  sha256,
  entries: z.number().int().nonnegative(),
});

export const ManifestItemSchema = z.discriminatedUnion('kind', [SqliteItem, VaultKeyItem, ModelItem, ModelSourceItem, JournalItem]);

// Unknown keys are dropped, not refused: a newer writer may add fields without breaking this reader;
// anything incompatible bumps format_version instead.
export const ManifestSchema = z.object({
  format_version: z.literal(MANIFEST_FORMAT_VERSION),
  app_version: z.string().min(1),
  generation: z.number().int().positive(),
  created_at: z.string().datetime(),
  host: z.string(),
  items: z.array(ManifestItemSchema),
});

export type Manifest = z.infer<typeof ManifestSchema>;
export type ManifestItem = z.infer<typeof ManifestItemSchema>;
export type SqliteManifestItem = z.infer<typeof SqliteItem>;
export type ModelManifestItem = z.infer<typeof ModelItem>;
export type ModelSourceManifestItem = z.infer<typeof ModelSourceItem>;
export type JournalManifestItem = z.infer<typeof JournalItem>;

/** One line naming what is wrong, for an error message (zod's own text is a JSON dump). */
export function describeManifestProblem(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return 'unknown problem';
  const where = first.path.length > 0 ? first.path.join('.') : 'the top level';
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : '';
  return `${where}: ${first.message}${more}`;
}

/** manifest.json's exact bytes: what the generation holds and what a run's record keeps. */
export function manifestText(manifest: Manifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
