// Everything a route needs, built once by the appliance (composition root).
import type { AdminEvents } from '../jobs/admin-events.js';
import type { BackupJobs } from '../jobs/backups.js';
import type { DrillJobs } from '../jobs/drills.js';
import type { GenerationViews } from '../jobs/generations.js';
import type { Jobs } from '../jobs/jobs.js';
import type { RestoreJobs } from '../jobs/restores.js';
import type { ModelPulls } from '../jobs/pulls.js';
import type { SwitchDataDir } from './switch-request.js';
import type { Clock } from '../clock.js';
import type { LanStatus } from '../contract/lan.js';
import type { ModelRegistry } from '../engine/registry.js';
import type { ModelsInMemory } from '../engine/models-in-memory.js';
import type { ConversationSearch } from '../tasks/conversation-search.js';
import type { Logger } from '../log/logger.js';
import type { MasterSecrets } from '../secrets/master-secrets.js';
import type { SecretStore } from '../secrets/secret-store.js';
import type { Vault } from '../secrets/vault.js';
import type { DeletionJournal } from '../store/deletion-journal.js';
import type { DiskState } from '../store/disk-state.js';
import type { ReadableDB, WritableDB } from '../store/open.js';
import type { Settings } from '../store/settings.js';
import type { Turns } from '../turns/turns.js';
import type { DurableCommits } from '../store/durable-commits.js';
import type { EventHub } from '../tasks/event-hub.js';
import type { TaskLedger } from '../tasks/ledger.js';
import type { TaskRunner } from '../tasks/runner.js';
import type { LoginCodes } from './login-codes.js';
import type { HealthCheck } from './health-check.js';

/** The network listener for paired devices (appliance/lan/ owns it). */
export interface LanControl {
  status(): LanStatus;
  /** Starts or stops it to match the settings (and `sanad serve --lan`); throws a sentence when it cannot start. */
  apply(): Promise<void>;
  /** A new authority: every paired device must check the new fingerprint and trust it again. */
  newCertificate(): Promise<void>;
  /** The certificate a device trusts, PEM; null while none was ever made (devices never turned on). */
  certificatePem(): Promise<string | null>;
  fingerprint(): string | null;
}

export interface ServiceSecrets {
  store: SecretStore;
  master: MasterSecrets;
  vault: Vault;
}

export interface ServiceContext {
  /** What route handlers and status functions read from: statements that can only be read. */
  db: ReadableDB;
  /** The writable store, only to hand to an owner's write function (clients, repositories,
   *  alerts…); never raw SQL in a route. */
  writer: WritableDB;
  dataDir: string;
  /** The data dir's disk: full or not (writes answer 507 while it is), free space, its alerts. */
  disk: DiskState;
  /** Every response deleted on purpose, by id (store/deletion-journal.ts); restores apply it again. */
  deletions: DeletionJournal;
  secrets: ServiceSecrets;
  /** The one owner of long-running work (jobs/jobs.ts); backups, drills and restores are its jobs. */
  jobs: Jobs;
  backups: BackupJobs;
  drills: DrillJobs;
  restores: RestoreJobs;
  /** Model downloads (jobs/pulls.ts). */
  pulls: ModelPulls;
  /** Generations opened to look inside (history/), cached for a while. */
  generations: GenerationViews;
  clock: Clock;
  logger: Logger;
  ledger: TaskLedger;
  /** The one path of every model request: checks, create with its commit, queue, wait, cancel. */
  turns: Turns;
  /** When the commits made so far are on the disk: every answer and streamed event waits for it. */
  durable: Pick<DurableCommits, 'settled'>;
  hub: EventHub;
  runner: TaskRunner;
  models: ModelRegistry;
  settings: () => Settings;
  updateSettings: (patch: Partial<Settings>) => Settings;
  /** Identifies this process's life, so leftovers of a crashed one can be told apart. */
  bootId: string;
  /** This run's proof key, also in service.json (0600): GET /health/proof shows a CLI this is the service it recorded. */
  proofKey: Buffer;
  login: LoginCodes;
  healthChecks: HealthCheck[];
  /** Progress and ends of long operations, streamed to the GUI by GET /admin/events. */
  adminEvents: AdminEvents;
  /** Filled in once the server listens (for Host/Origin checks and status). */
  address: { host: string; port: number };
  /** Models in memory, and loading or unloading one by hand. */
  inMemory: ModelsInMemory;
  /** Conversation searches, off the event loop (tasks/conversation-search.ts). */
  conversationSearch: ConversationSearch;
  lan: LanControl;
  /** Set when the host can restart this service on another data dir (appliance/data-dir-switch.ts). */
  switchDataDir?: SwitchDataDir;
}
