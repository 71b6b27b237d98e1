// GET /admin/first-run: the Overview's checklist for a new data dir (the recovery kit confirmed, an
// offsite target added and tested, the first backup, the first drill). Once every item was done
// the list is finished for good (`first_run_done_at`), so it never nags again, even if a target
// is removed later; then the other screens' own warnings take over.
import { listModels } from '../../store/models.js';
import { lastGoodBackupAt } from '../../repository/backup-runs.js';
import type { FastifyInstance } from 'fastify';
import { unixSeconds } from '../../clock.js';
import { listRepositories } from '../../repository/repositories.js';
import { lastFinishedRun } from '../../drill/drill-runs.js';
import { recoveryKitConfirmedAt } from '../../secrets/recovery-kit.js';
import type { Db } from '../../store/open.js';
import { readConfigValue, writeConfigValue } from '../../store/settings.js';
import { secured, type RouteKit } from './route-kit.js';

const DONE = 'first_run_done_at';
const OFFSITE_TESTED = 'first_run_offsite_tested_at';

/** A "test connection" to an offsite target passed (routes/backups.ts). */
export function noteOffsiteTested(db: Db, nowS: number): void {
  if (readConfigValue(db, OFFSITE_TESTED) === undefined) writeConfigValue(db, OFFSITE_TESTED, String(nowS), nowS);
}

export interface FirstRun {
  /** A model is registered (pulled or added): the first thing a local-model user does. */
  model: boolean;
  kit: boolean;
  offsite: boolean;
  backup: boolean;
  drill: boolean;
  done: boolean;
}

export function firstRun(db: Db, nowS: number): FirstRun {
  if (readConfigValue(db, DONE) !== undefined) return { model: true, kit: true, offsite: true, backup: true, drill: true, done: true };
  const offsite = listRepositories(db).filter((r) => r.enabled && r.type !== 'local');
  const items = {
    model: listModels(db).length > 0,
    kit: recoveryKitConfirmedAt(db) !== null,
    offsite: offsite.length > 0 && (readConfigValue(db, OFFSITE_TESTED) !== undefined || offsite.some((r) => r.last_ok_at !== null)),
    backup: lastGoodBackupAt(db) !== null,
    drill: lastFinishedRun(db) !== null,
  };
  const done = items.model && items.kit && items.offsite && items.backup && items.drill;
  if (done) {
    try {
      writeConfigValue(db, DONE, String(nowS), nowS);
    } catch {
      // A read must not fail for its bookkeeping (a full disk): the next look records it.
    }
  }
  return { ...items, done };
}

export function registerFirstRunRoutes(app: FastifyInstance, kit: RouteKit): void {
  app.get('/admin/first-run', { preHandler: secured(kit, 'admin') }, async () => firstRun(kit.ctx.writer, unixSeconds(kit.ctx.clock)));
}
