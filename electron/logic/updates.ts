// When the desktop app looks for a newer Sanad, and whether it can install one itself. Nothing is
// fetched unless the person set a feed (the `update_feed_url` setting); a found update is
// downloaded and its SHA-512 checked against the feed's, and then only offered: it installs when
// the person chooses "Restart to update", never by itself (not at quit either).

/** Checks after the core is up, then this often while the app runs. */
export const UPDATE_CHECK_INTERVAL_MS = 6 * 60 * 60 * 1000;

export type UpdateChannel =
  { kind: 'check'; feedUrl: string; installer: 'appimage' | 'nsis' | 'mac' } | { kind: 'off'; reason: 'no-feed' | 'package-manager' | 'not-installable' };

/**
 * How this copy of Sanad is updated. An AppImage replaces itself (APPIMAGE names the file); Windows
 * runs the new NSIS installer; macOS hands the verified zip to Squirrel. A .deb or .rpm is updated
 * by the system's package manager, and a copy run from a checkout by git: neither downloads here.
 */
export function updateChannel(feedUrl: string | null, platform: NodeJS.Platform, env: NodeJS.ProcessEnv, isPackaged: boolean): UpdateChannel {
  if (feedUrl === null) return { kind: 'off', reason: 'no-feed' };
  if (platform === 'linux')
    return env.APPIMAGE !== undefined && env.APPIMAGE !== ''
      ? { kind: 'check', feedUrl, installer: 'appimage' }
      : { kind: 'off', reason: isPackaged ? 'package-manager' : 'not-installable' };
  if (!isPackaged) return { kind: 'off', reason: 'not-installable' };
  if (platform === 'win32') return { kind: 'check', feedUrl, installer: 'nsis' };
  if (platform === 'darwin') return { kind: 'check', feedUrl, installer: 'mac' };
  return { kind: 'off', reason: 'not-installable' };
}

/**
 * The publisher whose Authenticode signature a Windows update must carry (build/electron-builder.yml
 * signs with it): electron-updater checks it only when app-update.yml names it, and installs nothing
 * else. A forged feed can list any SHA-512 it likes; it cannot sign as this publisher.
 */
export const WINDOWS_PUBLISHER = 'Sanad developers';

/** The file electron-updater reads its settings from (app-update.yml): the cache folder, and on Windows the pinned publisher. */
export function updaterConfig(installer: 'appimage' | 'nsis' | 'mac'): string {
  const cache = 'updaterCacheDirName: sanad-updater\n';
  return installer === 'nsis' ? `${cache}publisherName:\n  - ${WINDOWS_PUBLISHER}\n` : cache;
}
