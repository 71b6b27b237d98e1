// The secrets answers the GUI reads: the recovery kit, its confirmation, and a passphrase rotation.
import { z } from 'zod/v3';

export const RecoveryKit = z.object({ text: z.string(), created_at: z.number(), confirmed_at: z.number().nullable() });
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
