// The desktop app's answer to what breaks (logic/crash-policy.ts decides, this file only connects
// Electron's events and dialogs to it): an error nobody caught in the main process, a renderer that
// dies, a helper process that dies. "Save diagnostics" writes the same bundle as
// `sanad doctor --bundle` (src/doctor/bundle.ts), with this app's log.
import { app, dialog, type BrowserWindow, type WebContents } from 'electron';
import { join } from 'node:path';
import { systemClock } from '../src/clock.js';
import { writeDiagnosticsBundle } from '../src/doctor/bundle.js';
import { runDiagnostics } from '../src/doctor/diagnostics.js';
import type { Logger } from '../src/log/logger.js';
import { CRASH_WORDS, diagnosticsFileName, RendererCrashes, type CrashWords } from './logic/crash-policy.js';
import type { TrayLanguage } from './logic/tray-text.js';

export interface CrashHost {
  logger: Logger;
  logFile: string;
  language(): TrayLanguage;
  /** The data dir the core runs on (null before it is known). */
  dataDir(): string | null;
  /** The data dir's secrets, read while the core still runs, to take out of the bundle. */
  secrets(): Promise<string[]>;
  /** Stops the core the way Quit does (a backup interrupted cleanly, the store closed). */
  stopCore(): Promise<void>;
  window(): BrowserWindow | null;
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Asks where to save, then writes the bundle; says where it went, or why not. */
async function saveDiagnostics(host: CrashHost, words: CrashWords, secrets: readonly string[], crash: string | null): Promise<void> {
  const dataDir = host.dataDir();
  const asked = await dialog.showSaveDialog({ title: words.saveTitle, defaultPath: join(app.getPath('downloads'), diagnosticsFileName(systemClock.now())) });
  if (asked.canceled || asked.filePath === undefined || asked.filePath === '') return;
  try {
    const checks = dataDir === null ? [] : await runDiagnostics({ dataDir }).catch(() => []);
    await writeDiagnosticsBundle({
      dataDir,
      out: asked.filePath,
      checks,
      logFiles: [host.logFile],
      secrets,
      extra: { electron: process.versions.electron, chrome: process.versions.chrome, ...(crash === null ? {} : { crash }) },
    });
    host.logger.info('diagnostics saved', { path: asked.filePath });
  } catch (err) {
    host.logger.error('diagnostics could not be saved', { error: message(err) });
  }
}

/** The handler for an error nobody caught: once, whatever follows it. */
export function fatalHandler(host: CrashHost): (err: unknown) => void {
  let handling = false;
  return (err) => {
    if (handling) {
      host.logger.error('another error while stopping after one', { error: message(err) });
      return;
    }
    handling = true;
    host.logger.error('the desktop app met an error nobody caught; stopping', { error: message(err), stack: err instanceof Error ? (err.stack ?? '') : '' });
    const words = CRASH_WORDS[host.language()];
    void (async () => {
      const secrets = await host.secrets().catch(() => []);
      await host.stopCore().catch((e: unknown) => host.logger.error('the core did not stop cleanly', { error: message(e) }));
      const choice = await dialog.showMessageBox({
        type: 'error',
        title: words.fatalTitle,
        message: words.fatalMessage,
        detail: words.fatalDetail(message(err), app.getPath('logs')),
        buttons: [words.saveDiagnostics, words.quit],
        defaultId: 1,
        cancelId: 1,
        noLink: true,
      });
      if (choice.response === 0) await saveDiagnostics(host, words, secrets, message(err));
    })().finally(() => app.exit(1));
  };
}

/** Reloads a window whose renderer died, once; a second death soon after is said, not reloaded. */
export function watchRenderers(host: CrashHost): void {
  const crashes = new WeakMap<WebContents, RendererCrashes>();
  app.on('render-process-gone', (_event, contents, details) => {
    let seen = crashes.get(contents);
    if (seen === undefined) {
      seen = new RendererCrashes();
      crashes.set(contents, seen);
    }
    const decided = seen.gone(details.reason, systemClock.now());
    host.logger.warn("the window's renderer ended", { reason: details.reason, exit_code: details.exitCode, action: decided.action });
    if (decided.action === 'reload') contents.reload();
    if (decided.action !== 'tell') return;
    const words = CRASH_WORDS[host.language()];
    const win = host.window();
    const options = {
      type: 'warning' as const,
      title: words.rendererTitle,
      message: words.rendererMessage,
      buttons: [words.reload, words.saveDiagnostics, words.close],
      defaultId: 0,
      cancelId: 2,
      noLink: true,
    };
    void (win === null ? dialog.showMessageBox(options) : dialog.showMessageBox(win, options)).then(async (choice) => {
      if (choice.response === 0) contents.reload();
      if (choice.response === 1) await saveDiagnostics(host, words, await host.secrets().catch(() => []), null);
    });
  });
  // GPU, network or utility processes: Electron restarts what it needs; a restic or rclone child is
  // the job's own failure (src/process/spawn.ts) and never reaches here.
  app.on('child-process-gone', (_event, details) => {
    host.logger.warn('a helper process ended', { type: details.type, reason: details.reason, exit_code: details.exitCode, name: details.name ?? '' });
  });
}
