// Keeps the tray and the notifications in step with the core: on every admin event (backup and
// drill progress and ends, alert changes, restores) and on a slow timer (the age of the last backup
// grows without any event; another process, e.g. `sanad backup now`, can raise alerts in the same
// store), it reads the core's status, hands the tray its model, and shows what notify-dedupe says
// is news. No electron here: the sinks are the thin tray.ts and notifications-native.ts.
import { unixSeconds } from '../../src/clock.js';
import type { Logger } from '../../src/log/logger.js';
import type { AdminEvent } from '../../src/jobs/admin-events.js';
import type { ServiceContext } from '../../src/service/context.js';
import { recoveryKitConfirmedAt } from '../../src/secrets/recovery-kit.js';
import type { DesktopStateFile } from './desktop-state.js';
import { parseRestoreFinished, planAlertNotices, RestoreNotices, sameNotified, type Notice } from './notify-dedupe.js';
import type { SleepWake } from './sleep-wake.js';
import { trayInputFrom } from './tray-input.js';
import { trayModel, type TrayModel } from './tray-model.js';
import { TRAY_WORDS, trayLanguage, type TrayLanguage, type TrayWords } from './tray-text.js';
import { readSettings } from '../../src/store/settings.js';

export interface MonitorSinks {
  tray(model: TrayModel): void;
  notify(notice: Notice): void;
}

export type MonitorCore = Pick<ServiceContext, 'backups' | 'drills' | 'jobs' | 'db' | 'clock' | 'adminEvents'>;

/** The desktop's language: the one chosen in the GUI (the `language` setting), else the system's. */
export function desktopLanguage(db: MonitorCore['db'], systemLocale: string): TrayLanguage {
  try {
    return trayLanguage(readSettings(db).language, systemLocale);
  } catch {
    // The store is closing (Quit) or broken (a crash): the system's language will do.
    return trayLanguage(null, systemLocale);
  }
}

export const REFRESH_MS = 30_000;
/** A run's progress arrives up to twice a second; the tray needs at most one redraw a second. */
export const PROGRESS_REFRESH_MS = 1_000;

export class DesktopMonitor {
  private readonly restores = new RestoreNotices();
  private unsubscribe: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private progressTimer: NodeJS.Timeout | null = null;
  private lastSignature: string | null = null;
  private lastModel: TrayModel | null = null;

  private readonly core: MonitorCore;
  private readonly state: DesktopStateFile;
  private readonly sleepWake: SleepWake;
  private readonly sinks: MonitorSinks;

  constructor(
    private readonly options: {
      core: MonitorCore;
      state: DesktopStateFile;
      sleepWake: SleepWake;
      sinks: MonitorSinks;
      openAtLogin: () => boolean;
      /** The system's locale (Electron's app.getLocale()), for when the person chose no language. */
      systemLocale: () => string;
      /** The version a verified update waits with, for the tray's "Restart to update". */
      updateReady?: () => string | null;
      logger: Logger;
      refreshMs?: number;
    },
  ) {
    ({ core: this.core, state: this.state, sleepWake: this.sleepWake, sinks: this.sinks } = options);
  }

  start(): void {
    this.unsubscribe = this.core.adminEvents.subscribe((event) => this.onEvent(event));
    this.timer = setInterval(() => this.refresh(), this.options.refreshMs ?? REFRESH_MS);
    this.timer.unref();
    this.refresh();
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer !== null) clearInterval(this.timer);
    if (this.progressTimer !== null) clearTimeout(this.progressTimer);
    this.timer = this.progressTimer = null;
  }

  /** The model last handed to the tray (for menu actions that need the current state). */
  get model(): TrayModel | null {
    return this.lastModel;
  }

  private onEvent(event: AdminEvent): void {
    if (this.unsubscribe === null) return;
    if (event.type === 'run.updated') {
      this.progressTimer ??= setTimeout(() => {
        this.progressTimer = null;
        this.refresh();
      }, PROGRESS_REFRESH_MS);
      return;
    }
    if (event.type === 'backup.finished') {
      const runId = event.data.run_id;
      this.sleepWake.backupFinished(typeof runId === 'number' ? runId : null);
    }
    if (event.type === 'restore.finished') {
      const finished = parseRestoreFinished(event.data);
      const notice = finished && this.restores.notice(finished, this.words());
      if (notice) this.sinks.notify(notice);
    }
    this.refresh();
  }

  /** The tray's words: in the language the person chose in the GUI, else the system's. */
  words(): TrayWords {
    return TRAY_WORDS[desktopLanguage(this.core.db, this.options.systemLocale())];
  }

  /** Reads the core and updates tray and notifications; never throws (it runs from timers). */
  refresh(): void {
    if (this.unsubscribe === null) return;
    try {
      const { backups, drills, jobs, db, clock } = this.core;
      const words = this.words();
      const backupStatus = backups.status();
      const held = this.sleepWake.held();
      const input = trayInputFrom({
        backups: backupStatus,
        drills: drills.status(),
        openRuns: jobs.openRuns(),
        recoveryKitConfirmedAt: recoveryKitConfirmedAt(db),
        nowS: unixSeconds(clock),
        openAtLogin: this.options.openAtLogin(),
        held,
      });
      const model = trayModel({ ...input, updateReady: this.options.updateReady?.() ?? null }, words);
      this.lastModel = model;
      const signature = JSON.stringify(model);
      if (signature !== this.lastSignature) {
        this.lastSignature = signature;
        this.sinks.tray(model);
      }
      const plan = planAlertNotices(this.state.notified, backupStatus.alerts, held, words);
      if (!sameNotified(plan.notified, this.state.notified)) this.state.update({ notified: plan.notified });
      for (const notice of plan.show) this.sinks.notify(notice);
    } catch (err) {
      // The store is closing (Quit) or busy for a moment: the next event or tick tries again.
      this.options.logger.debug('tray refresh skipped', { error: err instanceof Error ? err.message : String(err) });
    }
  }
}
