// Update checks through electron-updater, against the feed the person set (logic/updates.ts decides
// whether and how). A newer version is downloaded and electron-updater checks its SHA-512 against
// the feed's before it counts as downloaded; the publisher's signature is checked too (Windows:
// Authenticode, pinned in app-update.yml; an AppImage: the detached signature of
// logic/update-signature.ts); then the tray offers "Restart to update" and one notification says
// so. Nothing installs by itself: autoInstallOnAppQuit is off, and restart() runs only from the
// person's click.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import updater, { type AppUpdater, type UpdateDownloadedEvent } from 'electron-updater';
import { MAX_SIGNATURE_CHARS, sha512Base64, signedByTrustedKey } from './logic/update-signature.js';
import type { Logger } from '../src/log/logger.js';
import { UPDATE_CHECK_INTERVAL_MS, updateChannel, updaterConfig, type UpdateChannel } from './logic/updates.js';

export interface UpdatesHost {
  /** The `update_feed_url` setting, read at each check (the person may change it any time). */
  feedUrl(): string | null;
  userData: string;
  isPackaged: boolean;
  logger: Logger;
  /** A verified download is waiting: offer the restart. */
  onReady(version: string): void;
  /** The publisher's Ed25519 keys (PEM) an AppImage update must be signed with. */
  trustedKeys(): string[];
}

const text = (value: unknown): string => (value instanceof Error ? value.message : String(value));

export class DesktopUpdates {
  private updater: AppUpdater | null = null;
  private feed: string | null = null;
  private checking = false;
  /** The version downloaded and verified, waiting for the person's restart. */
  ready: string | null = null;

  constructor(private readonly host: UpdatesHost) {}

  start(): void {
    void this.check();
    // Unref'd: it never keeps the app alive; it ends with the process.
    setInterval(() => void this.check(), UPDATE_CHECK_INTERVAL_MS).unref();
  }

  /** One check (and download); never throws: a failed check is logged and tried at the next. */
  async check(): Promise<void> {
    const channel = updateChannel(this.host.feedUrl(), process.platform, process.env, this.host.isPackaged);
    if (channel.kind === 'off' || this.ready !== null || this.checking) return;
    this.checking = true;
    try {
      const u = this.updaterFor(channel);
      const found = await u.checkForUpdates();
      if (found?.isUpdateAvailable === true) {
        this.host.logger.info('a newer Sanad was found; downloading it', { version: found.updateInfo.version });
        await found.downloadPromise;
      }
    } catch (err) {
      this.host.logger.warn('the update check failed', { feed: channel.feedUrl, error: text(err) });
    } finally {
      this.checking = false;
    }
  }

  /** The person chose "Restart to update": `prepare` stops the core, then the installer runs and the app quits. */
  async restart(prepare: () => Promise<void>): Promise<void> {
    if (this.updater === null || this.ready === null) return;
    await prepare();
    // Not silent (Windows shows its installer); the new version starts once installed.
    this.updater.quitAndInstall(false, true);
  }

  /**
   * An AppImage's detached signature, checked against the keys the app ships; Windows and macOS
   * installers carry the platform's own signature, which their updaters check before installing.
   */
  private async signedAsPublished(channel: Extract<UpdateChannel, { kind: 'check' }>, info: UpdateDownloadedEvent): Promise<boolean> {
    if (channel.installer !== 'appimage') return true;
    const name = info.files[0]?.url ?? info.path;
    try {
      const res = await fetch(new URL(`${name}.sig`, channel.feedUrl), { signal: AbortSignal.timeout(30_000) });
      const signature = res.ok ? (await res.text()).slice(0, MAX_SIGNATURE_CHARS) : '';
      const sha512 = await sha512Base64(info.downloadedFile);
      if (signedByTrustedKey(sha512, signature, this.host.trustedKeys())) return true;
      this.host.logger.warn('the update is not signed by a key this app trusts; it is not offered', {
        version: info.version,
        signature: res.ok ? 'does not match' : `none (HTTP ${res.status})`,
      });
    } catch (err) {
      this.host.logger.warn("the update's signature could not be checked; it is not offered", { version: info.version, error: text(err) });
    }
    return false;
  }

  private updaterFor(channel: Extract<UpdateChannel, { kind: 'check' }>): AppUpdater {
    if (this.updater !== null && this.feed === channel.feedUrl) return this.updater;
    const host = this.host;
    // Electron's own app adapter and net-based downloads (the version is the packaged app's). The
    // config file names the cache folder and, on Windows, the publisher an update must be signed by;
    // whether to check at all was decided above (updateChannel), so electron-updater's "packaged
    // only" gate is lifted for the AppImage case.
    const configPath = join(host.userData, 'app-update.yml');
    writeFileSync(configPath, updaterConfig(channel.installer));
    const u =
      channel.installer === 'appimage' ? new updater.AppImageUpdater() : channel.installer === 'nsis' ? new updater.NsisUpdater() : new updater.MacUpdater();
    u.forceDevUpdateConfig = true;
    // Before the feed: setting the config path forgets a feed given earlier.
    u.updateConfigPath = configPath;
    u.setFeedURL({ provider: 'generic', url: channel.feedUrl });
    u.autoDownload = true;
    u.autoInstallOnAppQuit = false;
    u.autoRunAppAfterInstall = true;
    u.logger = {
      info: (m?: unknown) => host.logger.debug(`updater: ${text(m)}`),
      warn: (m?: unknown) => host.logger.warn(`updater: ${text(m)}`),
      error: (m?: unknown) => host.logger.warn(`updater: ${text(m)}`),
    };
    u.on('update-downloaded', (info: UpdateDownloadedEvent) => {
      void this.signedAsPublished(channel, info).then((signed) => {
        if (!signed) return;
        this.ready = info.version;
        host.logger.info('the update is downloaded, its SHA-512 matches the feed and the publisher signed it; it installs when the person restarts', {
          version: info.version,
        });
        host.onReady(info.version);
      });
    });
    this.updater?.removeAllListeners();
    this.updater = u;
    this.feed = channel.feedUrl;
    return u;
  }
}
