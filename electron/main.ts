// The desktop app's main process: one instance per user, the core (LMSP service, store, backups,
// drills) in this process, the GUI in a hardened window, a tray that tells at a glance whether the
// backups are healthy, native notifications, sleep/wake handling and a graceful Quit.
// Every decision lives in ./logic (plain functions tested under Node); this file wires Electron's
// events to them and stays thin.
import { app, dialog, powerMonitor, session, shell } from 'electron';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { startRecoveryServer } from '../src/appliance/recovery/recovery-server.js';
import { createLogger, levelFromEnv, type Logger } from '../src/log/logger.js';
import { StoreDamagedError } from '../src/store/store-check.js';
import { readSettings } from '../src/store/settings.js';
import { secretsToRedact } from '../src/doctor/bundle.js';
import { trayLanguage } from './logic/tray-text.js';
import { fatalHandler, watchRenderers, type CrashHost } from './crash.js';
import { inUtilityProcess } from './keychain-helper.js';
import { DesktopUpdates } from './updates.js';
import { useKeychainHelper } from '../src/secrets/keychain-helper.js';
import { registerBridge } from './ipc.js';
import { bundledResticPath, coreDataDir, issueLoginCode, resticOverride, startCore, type Core } from './logic/core-host.js';
import { DESKTOP_STATE_FILE, DesktopStateFile } from './logic/desktop-state.js';
import { screenToRemember, windowUrl } from './logic/last-screen.js';
import { DesktopMonitor, desktopLanguage } from './logic/desktop-monitor.js';
import { parseLaunchArgs } from './logic/launch-args.js';
import { rotatingFileSink } from './logic/log-file.js';
import { shutdownCore } from './logic/shutdown.js';
import { SleepWake } from './logic/sleep-wake.js';
import { openAtLogin, openedAtLogin, refreshOpenAtLogin, setOpenAtLogin } from './login-item-native.js';
import { showNotice } from './notifications-native.js';
import { TrayIcon, type TrayActions } from './tray.js';
import { createMainWindow, hardenContents, hardenSession, type MainWindowHandle } from './window.js';
import { readTrustedKeys, UPDATE_KEYS_DIR } from './logic/update-signature.js';

// Before anything reads a path: userData, logs and the login items are named after the app, also
// when run unpackaged (`electron dist/electron/main.js` finds no package.json to take a name from).
app.setName('Sanad');
app.setPath('userData', join(app.getPath('appData'), 'Sanad'));
// Every renderer sandboxed, whatever a window's own options say.
app.enableSandbox();

const here = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));
/** dist/electron/main.js → <app>/build/icons (inside app.asar once packaged). */
const ICONS = here('../../build/icons/');
const PRELOAD = here('./preload.cjs');

function desktopLogger(): Logger {
  const file = rotatingFileSink(join(app.getPath('logs'), 'sanad.log'));
  return createLogger({
    level: levelFromEnv(process.env.SANAD_LOG),
    sink: (line) => {
      process.stderr.write(`${line}\n`);
      file(line);
    },
  });
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

if (!app.requestSingleInstanceLock()) {
  // Another Sanad runs for this user: it got our argv ('second-instance') and shows its window.
  app.quit();
} else {
  // Whatever run() did not expect ends in a message and a clean exit, not in an app that
  // silently never opens (Electron only logs an unhandled rejection in the main process).
  run().catch((err: unknown) => {
    process.stderr.write(`sanad: the desktop app failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    dialog.showErrorBox('Sanad could not start', `${message(err)}\n\nThe log is in ${app.getPath('logs')}.`);
    app.exit(1);
  });
}

async function run(): Promise<void> {
  const launch = parseLaunchArgs(process.argv, openedAtLogin());
  let handle: MainWindowHandle | null = null;
  let core: Core | null = null;
  let quitting = false;
  let done = false;
  let showWindow = (): void => undefined;

  app.on('second-instance', () => showWindow());
  app.on('activate', () => showWindow());
  // Closing the last window keeps Sanad running in the tray; only Quit ends it.
  app.on('window-all-closed', () => undefined);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());

  await app.whenReady();
  const logger = desktopLogger();
  // A keychain call that needs a fresh process gets a utility process (a packaged app has no
  // "run as Node"); forking one is allowed from here on, after ready.
  useKeychainHelper(inUtilityProcess);
  // What nobody caught ends in a clean stop, one box in the person's language and a non-zero exit;
  // a renderer that dies is reloaded once (crash.ts). Filled in as the core comes up.
  const logFile = join(app.getPath('logs'), 'sanad.log');
  // The GUI's Save diagnostics (GET /admin/diagnostics/bundle) includes this app's log.
  process.env.SANAD_LOG_FILE ??= logFile;
  const crashHost: CrashHost = {
    logger,
    logFile,
    window: () => handle?.window ?? null,
    language: () => trayLanguage(null, app.getLocale()),
    dataDir: () => null,
    secrets: async () => [],
    stopCore: async () => undefined,
  };
  const fatal = fatalHandler(crashHost);
  process.on('uncaughtException', fatal);
  process.on('unhandledRejection', fatal);
  watchRenderers(crashHost);
  let origin: string | null = null;
  app.on('web-contents-created', (_event, contents) => {
    if (origin !== null) hardenContents(contents, origin, logger);
  });

  const restic = resticOverride(process.env, app.isPackaged ? bundledResticPath(process.resourcesPath, process.platform) : null);
  if (restic !== null) process.env.SANAD_RESTIC = restic;
  const state = new DesktopStateFile(join(app.getPath('userData'), DESKTOP_STATE_FILE));
  const dataDir = coreDataDir(process.env, state.dataDir);
  try {
    core = await startCore({ dataDir, logger, onBattery: () => powerMonitor.isOnBatteryPower() });
  } catch (err) {
    logger.error('the core did not start', { error: message(err) });
    if (err instanceof StoreDamagedError) {
      // Not a dead end: a screen that restores the data into a new folder and opens it.
      const recovery = await startRecoveryServer({
        dataDir,
        damage: err,
        logger,
        showFolder: (path) => shell.showItemInFolder(path),
        openRestored: (restored) => {
          state.update({ dataDir: restored });
          app.relaunch();
          app.exit(0);
        },
      });
      origin = recovery.origin;
      hardenSession(session.defaultSession, recovery.origin);
      handle = createMainWindow({ url: recovery.loginUrl(), preload: PRELOAD, icon: join(ICONS, 'icon.png'), show: true, isQuitting: () => quitting });
      app.on('before-quit', () => void recovery.close());
      return;
    }
    dialog.showErrorBox('Sanad could not start', message(err));
    app.exit(1);
    return;
  }
  origin = core.origin;
  const started = core;
  const ctx = started.appliance.ctx;
  crashHost.dataDir = () => dataDir;
  crashHost.language = () => desktopLanguage(ctx.db, app.getLocale());
  crashHost.secrets = () => secretsToRedact(ctx.secrets.store);
  hardenSession(session.defaultSession, started.origin);
  registerBridge({ coreOrigin: started.origin, coreUrl: started.url, issueLoginCode: () => issueLoginCode(started), window: () => handle?.window ?? null });

  showWindow = () => {
    // Made on first use (a launch at login may never need it), shown once its page is ready, on
    // the screen the person used last (a hidden window keeps its page, so it is there already).
    if (handle === null) {
      handle = createMainWindow({
        url: windowUrl(started.url, state.lastScreen),
        preload: PRELOAD,
        icon: join(ICONS, 'icon.png'),
        show: true,
        isQuitting: () => quitting,
      });
      handle.window.webContents.on('did-navigate-in-page', (_event, url, isMainFrame) => {
        const screen = isMainFrame ? screenToRemember(url, started.origin) : null;
        if (screen !== null && screen !== state.lastScreen) state.update({ lastScreen: screen });
      });
    } else handle.show();
  };
  if (!launch.hidden) showWindow();

  const sleepWake = new SleepWake({ backups: ctx.backups, drills: ctx.drills, record: state, logger });
  crashHost.stopCore = async () => {
    quitting = done = true;
    monitor?.stop();
    await shutdownCore(started.appliance, { interruptBackup: () => sleepWake.interruptBackup('quit'), logger });
  };
  const fail = (what: string) => (err: unknown) => logger.warn(`${what} failed`, { error: message(err) });
  let monitor: DesktopMonitor | null = null;
  const updates = new DesktopUpdates({
    feedUrl: () => readSettings(ctx.db).update_feed_url,
    userData: app.getPath('userData'),
    isPackaged: app.isPackaged,
    logger,
    trustedKeys: () => readTrustedKeys(join(app.getAppPath(), UPDATE_KEYS_DIR)),
    onReady: (version) => {
      monitor?.refresh();
      const words = monitor?.words();
      if (words !== undefined)
        showNotice(
          { id: `update:${version}`, title: words.update.readyTitle(version), body: words.update.readyBody, urgency: 'normal' },
          { icon: join(ICONS, 'icon.png'), onClick: () => showWindow() },
        );
    },
  });
  const actions: TrayActions = {
    open: () => showWindow(),
    // The core stops first (as at Quit) and the lock is let go, so the new version, started by the
    // installer before this process ends, is not refused as a second instance.
    'restart-to-update': () =>
      void updates
        .restart(async () => {
          await crashHost.stopCore();
          tray.destroy();
          app.releaseSingleInstanceLock();
        })
        .catch(fail('restart to update')),
    'backup-now': () => void ctx.backups.run('tray').catch(fail('backup from the tray')),
    drill: () =>
      void ctx.drills
        .begin('daily', 'tray')
        .then((d) => d.done)
        .catch(fail('drill from the tray')),
    'last-backup': () => showWindow(),
    'last-drill': () => showWindow(),
    pause: (checked) => {
      ctx.updateSettings({ backup_paused: checked });
      monitor?.refresh();
    },
    'open-at-login': (checked) => {
      try {
        setOpenAtLogin(checked);
      } catch (err) {
        fail('start at login')(err);
      }
      monitor?.refresh();
    },
    quit: () => app.quit(),
  };
  const tray = new TrayIcon(ICONS, actions);
  monitor = new DesktopMonitor({
    core: ctx,
    state,
    sleepWake,
    logger,
    openAtLogin,
    systemLocale: () => app.getLocale(),
    updateReady: () => updates.ready,
    sinks: {
      tray: (model) => tray.update(model),
      notify: (notice) => showNotice(notice, { icon: join(ICONS, 'icon.png'), onClick: () => showWindow() }),
    },
  });
  monitor.start();
  updates.start();
  try {
    refreshOpenAtLogin();
  } catch (err) {
    fail('refreshing the start-at-login entry')(err);
  }
  sleepWake.launched();

  powerMonitor.on('suspend', () => {
    sleepWake.suspend();
  });
  powerMonitor.on('resume', () => {
    sleepWake.resume();
    monitor?.refresh();
  });
  // Linux and macOS: the session is ending. Ask for a moment (preventDefault) and quit cleanly.
  powerMonitor.on('shutdown', (event?: { preventDefault(): void }) => {
    event?.preventDefault();
    app.quit();
  });

  app.on('before-quit', (event) => {
    if (done) return;
    event.preventDefault();
    if (quitting) return;
    quitting = true;
    monitor?.stop();
    void shutdownCore(started.appliance, { interruptBackup: () => sleepWake.interruptBackup('quit'), logger })
      .then((report) =>
        logger.info('sanad stopped', { interrupted_run: report.interruptedRun, children: report.children.length, ms: report.ms, timed_out: report.timedOut }),
      )
      .finally(() => {
        done = true;
        tray.destroy();
        app.exit(0);
      });
  });
}
