// What a restore is asked to do and what it answers: shared by the steps (restore-steps.ts) and the
// whole run (restore-generation.ts), so neither
// imports the other's file for its types.
import type { Hub } from '../engine/hub/hub-client.js';
import type { Logger } from '../log/logger.js';
import type { SecretStore } from '../secrets/secret-store.js';
import type { RestoreCheck } from './checks.js';
import type { RepositorySource } from './open-repository.js';
import type { RestoreProgress } from './restore-progress.js';

export interface RestoreRequest {
  source: RepositorySource;
  /** The data dir this Sanad runs on: never written, and the target must stay apart from it. */
  liveDataDir: string;
  target: string;
  /** Default: the newest generation by epoch. */
  generation?: number;
  /** Verify the models at their original paths instead of restoring them. */
  modelsInPlace?: boolean;
  /** Keep the backup's paired clients (default: revoke them; reset-exposure.ts says why). */
  keepClients?: boolean;
  /** The secret store for the restored dir (keychain or secrets file), scoped to it. */
  secretsFor(dataDir: string): Promise<SecretStore>;
  onProgress?(p: RestoreProgress): void;
  /** Called once the target exists and before anything is written into it, with the folder a
   *  rollback would remove (null: the target was an empty folder, a rollback empties it). */
  onTargetPrepared?(rollbackTop: string | null): void;
  signal?: AbortSignal;
  logger?: Logger;
  /** Where models kept only by their source are pulled from (default: HF_ENDPOINT, no token). */
  hub?: () => Promise<Hub>;
}

export interface RestoreResult {
  ok: boolean;
  generation: number | null;
  snapshot_id: string | null;
  /** When the restored snapshot was taken (ISO), once it was found. */
  snapshot_time: string | null;
  repo: string;
  target: string;
  checks: RestoreCheck[];
  /** What to run next (only when ok). */
  next_step: string | null;
  /** One sentence: what failed and what state DIR was left in (only when not ok). */
  error: string | null;
}
