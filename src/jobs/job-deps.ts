// What every kind of job of the appliance is given: the store, the data dir, the clock and logger,
// the secrets, the settings as they are now, the owner it runs under, and the events it publishes.
import type { Clock } from '../clock.js';
import type { Logger } from '../log/logger.js';
import type { SecretStore } from '../secrets/secret-store.js';
import type { Db } from '../store/open.js';
import type { Settings } from '../store/settings.js';
import type { AdminEvents } from './admin-events.js';
import type { Jobs } from './jobs.js';

export interface JobDeps {
  db: Db;
  dataDir: string;
  clock: Clock;
  logger: Logger;
  store: SecretStore;
  settings: () => Settings;
  jobs: Jobs;
  /** Live progress, ends and alert changes for GET /admin/events. */
  events?: AdminEvents;
}
