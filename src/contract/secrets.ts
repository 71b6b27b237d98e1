// The secrets answers the GUI reads: the recovery kit, its confirmation, and a passphrase rotation.
import { z } from 'zod/v3';

// The kit holds the restic passphrase: it goes only to an admin (the GUI's Settings, `sanad recovery-kit`).
export const RecoveryKit = z.object({
  text: z.string(),
  created_at: z.number(),
  host: z.string(),
  data_dir: z.string(),
  restic_passphrase: z.string(),
  repositories: z.array(z.object({ name: z.string(), location: z.string() })),
  confirmed_at: z.number().nullable(),
});
export const KitConfirmed = z.object({ confirmed_at: z.number() });

export const RepositoryRotation = z.object({ name: z.string(), ok: z.boolean(), skipped: z.string().nullable(), old_keys_removed: z.boolean() });
export const RotationReport = z.object({
  rotated: z.literal(true),
  repositories: z.array(RepositoryRotation),
  warnings: z.array(z.string()),
  /** What the user must do now (a new recovery kit; old encrypted copies need the old passphrase). */
  notes: z.array(z.string()),
});
export type RotationReport = z.infer<typeof RotationReport>;
