// Injecting the soak's faults into the real running pieces: the service process (SIGKILL, started
// again at once), restic under it (SIGKILL mid-backup), the REST offsite server (killed, started
// again), the gnome-keyring daemon (stopped, started again), the data dir's tmpfs (filled to the
// last byte, freed again) and the service's clock (moved forward through its offset file).
import { readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PrivateKeyring } from '../test/harness/private-keyring.js';
import type { SmallDisk } from '../test/harness/small-disk.js';
import type { RestServer } from '../test/backup/run/rest-server.js';
import { MOVED_CLOCK_BIN, startServiceProcess, type ServiceProcess } from '../test/harness/service-process.js';
import { descendantsOf } from '../test/harness/process-tree.js';
import { holdMs, jumpHours, type Fault, type PlannedFault } from './plan.js';

const HOUR = 3_600_000;

/** The running service, and the restart in progress if there is one (clients wait for it). */
export class ServiceSlot {
  restarting: Promise<void> | null = null;
  constructor(
    public current: ServiceProcess,
    private readonly start: () => Promise<ServiceProcess>,
  ) {}

  async restart(): Promise<void> {
    const run = async (): Promise<void> => {
      await this.current.kill();
      // A start that fails is tried again (and said): the soak goes on with a service, or stops.
      for (let attempt = 1; ; attempt++) {
        try {
          this.current = await this.start();
          return;
        } catch (err) {
          if (attempt === 5) throw err;
          console.error(`soak: the service did not start again (attempt ${attempt}): ${String(err).split('\n')[0] ?? ''}`);
          await sleep(1_000);
        }
      }
    };
    this.restarting = run();
    try {
      await this.restarting;
    } finally {
      this.restarting = null;
    }
  }

  static async open(start: () => Promise<ServiceProcess>): Promise<ServiceSlot> {
    return new ServiceSlot(await start(), start);
  }
}

/** The service on the soak's moved clock (the test build of `sanad serve`: the shipped one reads no clock file). */
export const startService = (dataDir: string, adminToken: string, env: Record<string, string>) => () =>
  startServiceProcess(dataDir, adminToken, env, [], MOVED_CLOCK_BIN);

export interface FaultTargets {
  service: ServiceSlot;
  rest: RestServer;
  keyring: PrivateKeyring;
  /** The tmpfs under the data dir, or why there is none (then disk-full is skipped). */
  disk: SmallDisk | string;
  clockFile: string;
  kills: number[];
}

export type FaultCounts = Record<Fault, number> & { skipped: number; 'restic-found': number; 'clock-hours': number };

export const noFaults = (): FaultCounts => ({
  'kill-service': 0,
  'kill-restic': 0,
  'offsite-down': 0,
  'keychain-restart': 0,
  'disk-full': 0,
  'clock-jump': 0,
  skipped: 0,
  'restic-found': 0,
  'clock-hours': 0,
});

export async function inject(planned: PlannedFault, to: FaultTargets, counts: FaultCounts): Promise<void> {
  const { fault, size } = planned;
  switch (fault) {
    case 'kill-service':
      to.kills.push(Date.now());
      await to.service.restart();
      break;
    case 'kill-restic': {
      // A backup is asked for (or joined), and restic is killed as soon as it runs `backup`.
      await to.service.current.api.post('/admin/backups', {}).catch(() => undefined);
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline) {
        const pid = to.service.current.child.pid;
        const restic = pid === undefined ? undefined : descendantsOf(pid).find((c) => c.args.some((a) => a.endsWith('restic')) && c.args.includes('backup'));
        if (restic) {
          await sleep(Math.round(size * 150));
          try {
            process.kill(restic.pid, 'SIGKILL');
            counts['restic-found']++;
          } catch {
            // it finished in that moment
          }
          break;
        }
        await sleep(20);
      }
      break;
    }
    case 'offsite-down':
      await to.rest.stop('SIGKILL');
      await sleep(holdMs(size));
      await to.rest.start();
      break;
    case 'keychain-restart':
      await to.keyring.stopDaemon();
      await sleep(holdMs(size));
      await to.keyring.startDaemon();
      break;
    case 'disk-full':
      if (typeof to.disk === 'string') {
        counts.skipped++;
        return;
      }
      to.disk.fill();
      await sleep(holdMs(size));
      to.disk.free();
      break;
    case 'clock-jump': {
      const hours = jumpHours(size);
      let offset = 0;
      try {
        offset = Number(readFileSync(to.clockFile, 'utf8')) || 0;
      } catch {
        // no jump yet
      }
      writeFileSync(to.clockFile, String(offset + hours * HOUR));
      counts['clock-hours'] += hours;
      break;
    }
  }
  counts[fault]++;
}
