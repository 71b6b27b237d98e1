// "Open the restored data": a running Sanad stops its appliance cleanly and starts a new one on
// another data dir, on the same host and port, so the browser (or the desktop window) keeps its
// origin and only signs in again. The appliance itself cannot restart itself (it would have to
// close the server that is answering the request), so it only *asks* its host through the
// `onSwitchDataDir` option; the host is whoever called startAppliance: `sanad serve` runs
// `hostAppliance` below, and the desktop shell can run the same function in its main process.
//
// The login code for the next instance is made before it exists and handed to it
// (ApplianceOptions.loginCode), so the route that asked for the switch can answer with a login URL
// that will work once the new instance listens. If the new data dir cannot start (its keychain
// entries are missing, another Sanad holds it…), the host goes back to the previous data dir with
// that same code and raises an alert there, so the user is never left with nothing running.
import { errorParam } from '../contract/said.js';
import { say } from '../contract/said/index.js';
import { raiseAlert } from '../store/alerts.js';
import { startAppliance, type Appliance, type ApplianceOptions } from './appliance.js';
import type { DataDirSwitch } from '../service/switch-request.js';

export type { DataDirSwitch, SwitchDataDir } from '../service/switch-request.js';

export const SWITCH_FAILED_ALERT = 'service.open_restored_failed';

export type StartReason = 'start' | 'switch' | 'fallback';

export interface HostHooks {
  /** Each appliance that starts, with the login URL that signs a browser in to it. */
  started(appliance: Appliance, info: { reason: StartReason; loginUrl: string }): void;
  /** Resolves when the host wants to stop (SIGINT/SIGTERM, the app quits). */
  stopped: Promise<void>;
  /** A switch was asked for: the current appliance is about to close. */
  switching?(from: string, to: string): void;
  /** The new data dir did not start; the host goes back to `from`. */
  switchFailed?(from: string, to: string, error: unknown): void;
}

/**
 * Runs appliances until `hooks.stopped`: the one on `options.dataDir` first, then one per switch
 * the running appliance asks for. Rejects only if an appliance cannot start and there is nothing
 * to go back to (the very first start, or the fallback itself failed).
 */
export async function hostAppliance(options: Omit<ApplianceOptions, 'onSwitchDataDir' | 'loginCode'>, hooks: HostHooks): Promise<void> {
  let stopping = false;
  void hooks.stopped.then(() => (stopping = true));
  let base: Omit<ApplianceOptions, 'onSwitchDataDir' | 'loginCode'> = options;
  let reason: StartReason = 'start';
  let code: string | null = null;
  let previous: string | null = null;
  let failure: { to: string; error: unknown } | null = null;
  for (;;) {
    let asked: (request: DataDirSwitch) => void = () => undefined;
    const switchAsked = new Promise<DataDirSwitch>((resolve) => (asked = resolve));
    const attempt = { ...base, onSwitchDataDir: (request: DataDirSwitch) => asked(request), ...(code !== null ? { loginCode: code } : {}) };
    let appliance: Appliance;
    try {
      appliance = await startAppliance(attempt);
    } catch (err) {
      if (reason !== 'switch' || previous === null) throw err;
      hooks.switchFailed?.(previous, base.dataDir, err);
      failure = { to: base.dataDir, error: err };
      base = { ...base, dataDir: previous };
      reason = 'fallback';
      continue;
    }
    if (failure !== null) {
      raiseAlert(
        appliance.ctx.writer,
        appliance.ctx.clock,
        SWITCH_FAILED_ALERT,
        'warning',
        say('alert.switch_failed', { path: failure.to, error: errorParam(failure.error), previous: base.dataDir }),
      );
      failure = null;
    }
    // A first start on port 0 got a free port: every later start takes that same port, so the
    // browser's origin (and its login link) stays valid across the switch.
    base = { ...base, port: appliance.port };
    hooks.started(appliance, { reason, loginUrl: code !== null ? `${appliance.url}/login?code=${code}` : appliance.loginUrl() });
    const next = stopping ? null : await Promise.race([hooks.stopped.then(() => null), switchAsked]);
    if (next !== null) hooks.switching?.(base.dataDir, next.dataDir);
    await appliance.close();
    if (next === null) return;
    previous = base.dataDir;
    base = { ...base, dataDir: next.dataDir };
    code = next.loginCode;
    reason = 'switch';
  }
}
