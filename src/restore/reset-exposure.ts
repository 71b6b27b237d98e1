// What must not come back from a backup unchecked. A backup's store is whatever was written to the
// repository: whoever holds the recovery kit could have planted a paired client whose token they
// know, or switched the network listener on. So a restore keeps the backup's clients only when the
// person restoring says so (`--keep-clients`, the GUI's box), always brings devices on the network
// back off, and forgets the update feed (a forged one would offer the forger's build as an update,
// one click from running it); the checklist says each, in words.
import Database from 'better-sqlite3';
import { systemClock, unixSeconds } from '../clock.js';
import type { Spoken } from '../contract/said.js';
import { say } from '../contract/said/index.js';
import { readSettings, writeSettings } from '../store/settings.js';

export interface ExposureReset {
  /** Clients revoked (0 when kept). */
  revoked: number;
  /** Clients kept as they were (0 when revoked). */
  kept: number;
  /** Unused pairing codes removed. */
  codes: number;
  /** The network listener's switch was on in the backup. */
  lanWasOn: boolean;
  /** The backup named an update feed of its own (now forgotten: updates come from the default feed). */
  feedWasSet: boolean;
}

export function resetExposure(storeFile: string, keepClients: boolean): ExposureReset {
  const nowS = unixSeconds(systemClock);
  // A plain connection in the copy's rollback-journal mode, as reapply-deletions.ts does; the store
  // was admitted as Sanad's own before this (untrusted-store.ts).
  const db = new Database(storeFile, { fileMustExist: true });
  try {
    db.pragma('trusted_schema = OFF');
    db.pragma('secure_delete = ON');
    return db.transaction((): ExposureReset => {
      const settings = readSettings(db);
      const lanWasOn = settings.lan_enabled;
      const feedWasSet = settings.update_feed_url !== null;
      if (lanWasOn || feedWasSet) writeSettings(db, { lan_enabled: false, update_feed_url: null }, nowS);
      const codes = db.prepare('DELETE FROM pairing_codes').run().changes;
      const live = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM clients WHERE revoked_at IS NULL').get()?.n ?? 0;
      // Stores older than version 7 have no table of temporary clients.
      if (db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'temporary_clients'").get())
        db.prepare('DELETE FROM temporary_clients').run();
      if (keepClients) return { revoked: 0, kept: live, codes, lanWasOn, feedWasSet };
      const revoked = db.prepare('UPDATE clients SET revoked_at = ? WHERE revoked_at IS NULL').run(nowS).changes;
      return { revoked, kept: 0, codes, lanWasOn, feedWasSet };
    })();
  } finally {
    db.close();
  }
}

/** The checklist's sentence for what was reset. */
export function exposureSaid(r: ExposureReset): Spoken {
  const clients =
    r.revoked > 0 ? say('restore.clients_off', { count: r.revoked }) : r.kept > 0 ? say('restore.clients_kept', { count: r.kept }) : say('restore.no_clients');
  const lan = say(r.lanWasOn ? 'restore.lan_switched_off' : 'restore.lan_stays_off');
  const codes = r.codes > 0 ? [say('restore.codes_removed', { count: r.codes })] : [];
  const feed = r.feedWasSet ? [say('restore.feed_forgotten')] : [];
  return say('restore.exposure', { parts: [clients, lan, ...codes, ...feed] });
}
