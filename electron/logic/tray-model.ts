// What the tray shows, decided by one pure function of the core's status, so every combination can
// be tested under Node (tray.ts only draws the result). Precedence, worst first:
//   failing  the last backup failed, or a drill found damage (FAIL): act now;
//   running  a backup is in progress (with its percent);
//   warning  no good backup within its target age, a drill UNVERIFIED, the recovery kit not
//            confirmed, an offsite target failing, a backup the shell itself interrupted (sleep,
//            Quit) and is about to retry, or another open warning;
//   healthy  none of the above.
// A failure stays red while a retry runs: the retry has not fixed anything yet, and the tooltip says
// "Backing up… 42%" underneath, so the user sees both.
import type { Severity } from '../../src/store/alerts.js';
import type { DrillKind, Verdict } from '../../src/drill/verdict.js';
import { TRAY_WORDS, type TrayState, type TrayWords } from './tray-text.js';

export type { TrayState } from './tray-text.js';

export interface TrayInput {
  /** Unix seconds. */
  nowS: number;
  backupRunning: boolean;
  /** 0–100 while restic uploads; null while the generation is prepared or when idle. */
  backupPercent: number | null;
  backupPaused: boolean;
  /** The `backup.failed` alert is open (and not only because the shell interrupted the run). */
  backupFailed: boolean;
  /** The last run failed because the shell interrupted it (sleep-wake.ts); a retry follows. */
  backupInterrupted: boolean;
  /** Unix seconds of the last good (ok or partial) backup. */
  lastOkAt: number | null;
  /** Age after which the last good backup is too old (the health check's: twice the interval). */
  backupTargetS: number;
  /** Offsite repositories (or the offsite copy) whose last attempt failed. */
  offsiteFailing: string[];
  drillRunning: boolean;
  lastDrill: { verdict: Verdict | null; kind: DrillKind; finishedAt: number | null } | null;
  /** The `drill.failed` / `drill.unverified` alerts are open (a later narrower PASS does not clear them). */
  drillFailed: boolean;
  drillUnverified: boolean;
  recoveryKitConfirmed: boolean;
  /** Open alerts the shell has no line for (maintenance, old keys…). */
  otherAlerts: Array<{ severity: Severity }>;
  openAtLogin: boolean;
  /** The disk holding the data: full (writes refused) or low (the next backup may not fit). */
  disk?: 'low' | 'full';
  /** The OS keychain stopped answering: backups and rotation wait for it. */
  keychainDown?: boolean;
  /** The master secrets are in a file (no keychain when they were made): a warning of its own. */
  secretsInFile?: boolean;
  /** A newer Sanad downloaded and verified (updates.ts): the menu offers the restart that installs it. */
  updateReady?: string | null;
}

export type TrayMenuId = 'open' | 'restart-to-update' | 'backup-now' | 'drill' | 'last-backup' | 'last-drill' | 'pause' | 'open-at-login' | 'quit';

export type TrayMenuItem =
  | { type: 'separator' }
  | { type: 'normal'; id: TrayMenuId; label: string; enabled: boolean }
  | { type: 'checkbox'; id: TrayMenuId; label: string; enabled: boolean; checked: boolean };

export interface TrayModel {
  state: TrayState;
  /** File name stem under build/icons: `tray-<state>` (tray.ts adds .png; @2x is picked by Electron). */
  icon: `tray-${TrayState}`;
  /** The title and every reason, unabridged (the GUI-less summary). */
  lines: string[];
  /** What fits in a tray tooltip (Windows cuts at 127 characters). */
  tooltip: string;
  lastBackupLine: string;
  lastDrillLine: string;
  paused: boolean;
  menu: TrayMenuItem[];
}

export const TOOLTIP_MAX = 127;

/** The tray for this input, worded in `words` (English unless the person chose otherwise). */
export function trayModel(input: TrayInput, words: TrayWords = TRAY_WORDS.en): TrayModel {
  const R = words.reason;
  const failing: string[] = [];
  const warning: string[] = [];
  if (input.backupFailed) failing.push(R.backupFailed);
  if (input.drillFailed) failing.push(R.drillFailed);
  if (input.disk === 'full') failing.push(R.diskFull);
  if (input.keychainDown) failing.push(R.keychainDown);
  if (input.otherAlerts.some((a) => a.severity === 'critical')) failing.push(R.otherAlerts(input.otherAlerts.filter((a) => a.severity === 'critical').length));
  const age = input.lastOkAt === null ? null : Math.max(0, input.nowS - input.lastOkAt);
  if (age === null) warning.push(R.noBackup);
  else if (age > input.backupTargetS) warning.push(R.stale(Math.floor(age / 3600), Math.round(input.backupTargetS / 3600)));
  if (input.backupInterrupted && !input.backupFailed) warning.push(R.interrupted);
  if (input.drillUnverified) warning.push(R.drillUnverified);
  if (input.disk === 'low') warning.push(R.diskLow);
  if (input.secretsInFile) warning.push(R.secretsInFile);
  if (!input.recoveryKitConfirmed) warning.push(R.kitNotConfirmed);
  if (input.offsiteFailing.length > 0) warning.push(R.offsiteFailing(input.offsiteFailing));
  const otherWarnings = input.otherAlerts.filter((a) => a.severity === 'warning').length;
  if (otherWarnings > 0) warning.push(R.otherAlerts(otherWarnings));

  const state: TrayState = failing.length > 0 ? 'failing' : input.backupRunning ? 'running' : warning.length > 0 ? 'warning' : 'healthy';
  const running = input.backupRunning ? [R.backingUp(input.backupPercent)] : [];
  const reasons = [...running, ...failing, ...warning, ...(input.backupPaused ? [R.paused] : [])];
  const lines = [words.title[state], ...reasons];
  const lastBackupLine = words.lastBackup(age === null ? null : words.ago(age));
  const d = input.lastDrill;
  const lastDrillLine = words.lastDrill(
    d?.verdict ?? null,
    d?.kind ?? 'daily',
    d?.finishedAt == null ? null : words.ago(Math.max(0, input.nowS - d.finishedAt)),
  );
  const M = words.menu;
  const menu: TrayMenuItem[] = [
    { type: 'normal', id: 'open', label: M.open, enabled: true },
    ...(input.updateReady != null ? [{ type: 'normal', id: 'restart-to-update', label: words.update.restart(input.updateReady), enabled: true } as const] : []),
    { type: 'separator' },
    { type: 'normal', id: 'backup-now', label: M.backupNow, enabled: !input.backupRunning },
    // A drill during a backup would only wait or answer UNVERIFIED: offer it when it can run.
    { type: 'normal', id: 'drill', label: M.drill, enabled: !input.drillRunning && !input.backupRunning },
    { type: 'separator' },
    { type: 'normal', id: 'last-backup', label: lastBackupLine, enabled: false },
    { type: 'normal', id: 'last-drill', label: lastDrillLine, enabled: false },
    { type: 'separator' },
    { type: 'checkbox', id: 'pause', label: M.pause, enabled: true, checked: input.backupPaused },
    { type: 'checkbox', id: 'open-at-login', label: M.openAtLogin, enabled: true, checked: input.openAtLogin },
    { type: 'separator' },
    { type: 'normal', id: 'quit', label: M.quit, enabled: true },
  ];
  return { state, icon: `tray-${state}`, lines, tooltip: fitTooltip(lines), lastBackupLine, lastDrillLine, paused: input.backupPaused, menu };
}

/** Whole lines while they fit, then "…": a cut mid-word reads as a bug. */
export function fitTooltip(lines: readonly string[], max = TOOLTIP_MAX): string {
  let out = '';
  for (const line of lines) {
    const next = out === '' ? line : `${out}\n${line}`;
    if (next.length > max) return out === '' ? `${line.slice(0, max - 1)}…` : out.length + 2 <= max ? `${out}\n…` : out;
    out = next;
  }
  return out;
}
