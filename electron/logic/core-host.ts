// The core in the desktop's main process: the same appliance `sanad serve` runs, on 127.0.0.1 and a
// port the OS picks, so nothing else on the machine can predict or squat it.
//
// Its data dir is the one the CLI uses by default (resolveDataDir: --data-dir / SANAD_DATA_DIR /
// the OS's app-data folder), so `sanad backup now` or `sanad restore` in a terminal find the
// desktop's data and its running instance (service.json) without flags. On macOS and Windows that
// folder IS Electron's userData (`~/Library/Application Support/Sanad`, `%APPDATA%\Sanad`); on Linux
// it is `$XDG_DATA_HOME/sanad` (data) while Electron keeps its own files in `~/.config/Sanad`.
//
// A desktop build ships its own restic beside the app (build/electron-builder.yml,
// extraResources); it is used unless the user configured one (SANAD_RESTIC), and PATH is the
// fallback when the file is missing (an unpackaged `npm run desktop`).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startAppliance, type Appliance } from '../../src/appliance/appliance.js';
import { systemConditions } from '../../src/schedule/os-conditions.js';
import { resolveDataDir } from '../../src/appliance/data-dir.js';
import type { Logger } from '../../src/log/logger.js';
import { originOf } from './url-policy.js';

/** SANAD_DATA_DIR wins; else a folder the recovery screen restored into; else the default. */
export function coreDataDir(env: NodeJS.ProcessEnv, restored: string | null = null): string {
  return resolveDataDir(env.SANAD_DATA_DIR ? undefined : (restored ?? undefined), env);
}

export function bundledResticPath(resourcesPath: string, platform: NodeJS.Platform): string {
  return join(resourcesPath, platform === 'win32' ? 'restic.exe' : 'restic');
}

/** The restic the core should use, as SANAD_RESTIC, or null to keep the core's own search. */
export function resticOverride(env: NodeJS.ProcessEnv, bundled: string | null, exists: (path: string) => boolean = existsSync): string | null {
  if (env.SANAD_RESTIC !== undefined && env.SANAD_RESTIC !== '') return null;
  return bundled !== null && exists(bundled) ? bundled : null;
}

export interface Core {
  appliance: Appliance;
  url: string;
  /** `http://127.0.0.1:PORT`: the only origin the window may show and the bridge may serve. */
  origin: string;
  dataDir: string;
}

/** `onBattery`: Electron's answer (powerMonitor), which every OS gives, for "not on battery". */
export async function startCore(options: { dataDir: string; logger?: Logger; onBattery?: () => boolean }): Promise<Core> {
  const conditions = options.onBattery ? { conditions: systemConditions({ onBattery: options.onBattery }) } : {};
  const appliance = await startAppliance({
    dataDir: options.dataDir,
    host: '127.0.0.1',
    port: 0,
    ...(options.logger ? { logger: options.logger } : {}),
    ...conditions,
  });
  return { appliance, url: appliance.url, origin: originOf(appliance.url), dataDir: options.dataDir };
}

/** A fresh one-time GUI login code (LoginCodes.issue); the renderer redeems it at /login?code=. */
export function issueLoginCode(core: Core): string {
  return core.appliance.ctx.login.issue();
}
