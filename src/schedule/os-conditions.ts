// What the operating system says about power and the network, for schedules that hold a backup
// while the laptop runs on battery or the connection is metered. Each answer is true, false, or
// null when this machine does not say (no battery information, no NetworkManager): null never
// holds a backup, and the GUI says the setting cannot be honoured here. The desktop app passes
// Electron's own answer for battery (powerMonitor, every OS); headless Sanad reads Linux's sysfs
// (`/sys/class/power_supply`) and macOS's `pmset`, and NetworkManager (over the system bus) for
// metered connections.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runChild } from '../process/spawn.js';

export interface OsConditions {
  onBattery(): Promise<boolean | null>;
  metered(): Promise<boolean | null>;
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}

/**
 * Linux's power supplies: on battery when a battery discharges and no mains supply is online; not
 * on battery when a mains (or USB-C) supply is online, or there is a mains supply and no battery (a
 * desktop); null when the folder says nothing (a container, another OS).
 */
export function batteryFromSysfs(root = '/sys/class/power_supply'): boolean | null {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return null;
  }
  const supplies = names.map((name) => ({
    type: readText(join(root, name, 'type')),
    online: readText(join(root, name, 'online')),
    status: readText(join(root, name, 'status')),
  }));
  const mains = supplies.filter((s) => s.type === 'Mains' || s.type === 'USB');
  const batteries = supplies.filter((s) => s.type === 'Battery');
  if (mains.some((s) => s.online === '1')) return false;
  if (batteries.some((s) => s.status === 'Discharging')) return true;
  if (batteries.length === 0) return mains.length > 0 ? false : null;
  // A battery that is full or charging is on mains even when no mains supply is listed.
  return batteries.some((s) => s.status === 'Charging' || s.status === 'Full' || s.status === 'Not charging') ? false : null;
}

/** `pmset -g batt` on macOS: its first line says which source the Mac draws from. */
export function batteryFromPmset(output: string): boolean | null {
  if (/'Battery Power'/.test(output)) return true;
  if (/'AC Power'/.test(output)) return false;
  return null;
}

/**
 * NetworkManager's global Metered property (the device with the default route), as `busctl
 * get-property` prints it: `u 1` yes, `u 3` guessed yes (a phone's hotspot), `u 2` / `u 4` no,
 * `u 0` unknown. NetworkManager's own advice: treat a guessed yes as yes.
 */
export function meteredFromBusctl(output: string): boolean | null {
  const m = /^u\s+(\d+)\s*$/.exec(output.trim());
  if (!m) return null;
  const value = Number(m[1]);
  if (value === 1 || value === 3) return true;
  if (value === 2 || value === 4) return false;
  return null;
}

async function output(command: string, args: string[]): Promise<string | null> {
  try {
    const result = await runChild({ command, args, env: {}, signal: AbortSignal.timeout(5_000) });
    return result.code === 0 ? result.stdoutTail.join('\n') : null;
  } catch {
    // Not installed: this machine does not say.
    return null;
  }
}

/** The answers of this machine; `onBattery` replaces the battery reading (the desktop app's). */
export function systemConditions(options: { onBattery?: () => boolean; platform?: NodeJS.Platform; sysfsRoot?: string } = {}): OsConditions {
  const platform = options.platform ?? process.platform;
  return {
    onBattery: async () => {
      if (options.onBattery) return options.onBattery();
      if (platform === 'linux') return batteryFromSysfs(options.sysfsRoot);
      if (platform === 'darwin') {
        const text = await output('pmset', ['-g', 'batt']);
        return text === null ? null : batteryFromPmset(text);
      }
      return null;
    },
    metered: async () => {
      if (platform !== 'linux') return null;
      const text = await output('busctl', [
        '--system',
        'get-property',
        'org.freedesktop.NetworkManager',
        '/org/freedesktop/NetworkManager',
        'org.freedesktop.NetworkManager',
        'Metered',
      ]);
      return text === null ? null : meteredFromBusctl(text);
    },
  };
}
