// The appliance in the test's own process, on a free port, with its own data dir.
import type { OsConditions } from '../../src/schedule/os-conditions.js';
import { startAppliance, type Appliance } from '../../src/appliance/appliance.js';
import type { Clock } from '../../src/clock.js';
import type { LanListenerOptions } from '../../src/appliance/lan/lan-listener.js';
import type { Fsync } from '../../src/store/durable-commits.js';
import { silentLogger } from '../../src/log/logger.js';
import type { Settings } from '../../src/store/settings.js';
import { Api } from './api.js';
import { prepareDataDir } from './data-dir.js';
import { freePort } from './ports.js';
import type { RunKind } from '../../src/contract/runs.js';

export interface TestAppliance {
  appliance: Appliance;
  api: Api;
  dataDir: string;
  adminToken: string;
  close(): Promise<void>;
}

export async function startTestAppliance(
  options: {
    settings?: Partial<Settings>;
    clock?: Clock;
    dataDir?: string;
    adminToken?: string;
    lan?: LanListenerOptions;
    conditions?: OsConditions;
    fsync?: Fsync;
    stallMs?: Partial<Record<RunKind, number>>;
  } = {},
): Promise<TestAppliance> {
  process.env.SANAD_THREADS ??= '1';
  process.env.SANAD_GPU ??= 'off';
  const prepared =
    options.dataDir && options.adminToken ? { dataDir: options.dataDir, adminToken: options.adminToken } : await prepareDataDir(options.settings ?? {});
  const appliance = await startAppliance({
    dataDir: prepared.dataDir,
    // Not 0: tests stop an appliance and start the next on its port (harness/ports.ts says why).
    port: await freePort(),
    logger: silentLogger,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.lan ? { lan: options.lan } : {}),
    ...(options.conditions ? { conditions: options.conditions } : {}),
    ...(options.fsync ? { fsync: options.fsync } : {}),
    ...(options.stallMs ? { stallMs: options.stallMs } : {}),
  });
  return {
    appliance,
    api: new Api(appliance.url, prepared.adminToken),
    dataDir: prepared.dataDir,
    adminToken: prepared.adminToken,
    close: () => appliance.close(),
  };
}
