// The composition root: one data dir in, a running appliance out. Order matters: the store is
// migrated and every leftover task is recovered (LMSP §11.3) before the port opens.
import type { OsConditions } from '../schedule/os-conditions.js';
import { removeLeftoverHistoryScratch } from '../history/generation-copy.js';
import { GenerationViews } from '../jobs/generations.js';
import { repositorySourceFor } from '../restore/restore-source.js';
import { DeletionJournal } from '../store/deletion-journal.js';
import { randomBytes } from 'node:crypto';
import { assertDataDirUsable, makeDataDir } from './data-dir.js';
import { clearSecretFiles } from '../repository/restic/run.js';
import { systemClock, unixSeconds, type Clock } from '../clock.js';
import type { Engine } from '../engine/engine.js';
import { LlamaEngine } from '../engine/llama-engine.js';
import { ModelRegistry } from '../engine/registry.js';
import { ModelsInMemory } from '../engine/models-in-memory.js';
import { createLogger, levelFromEnv, type Logger } from '../log/logger.js';
import type { ServiceContext } from '../service/context.js';
import { releaseStaleReservations } from '../service/idempotency.js';
import { LoginCodes } from '../service/login-codes.js';
import { buildServer } from '../service/server.js';
import { serviceBaseUrl } from '../service/base-url.js';
import { DiskState } from '../store/disk-state.js';
import { openStore } from '../store/open.js';
import { readSettings, writeSettings, type Settings } from '../store/settings.js';
import { Turns } from '../turns/turns.js';
import { CreateBatcher } from '../tasks/create-batcher.js';
import { DurableCommits, type Fsync } from '../store/durable-commits.js';
import { EventHub } from '../tasks/event-hub.js';
import { TaskLedger } from '../tasks/ledger.js';
import { recoverTasks, type RecoveryReport } from '../tasks/recovery.js';
import { TaskRunner } from '../tasks/runner.js';
import { ensureMasterSecrets } from '../secrets/master-secrets.js';
import { openSecretStore } from '../secrets/open-secret-store.js';
import { WatchedSecretStore } from '../secrets/watched-store.js';
import { SecretsFileStore } from '../secrets/secrets-file.js';
import { writeSecretsLocation } from '../secrets/secrets-location.js';
import { secretsFileAlerts } from './secrets-in-file.js';
import { KeychainWatch } from './keychain-watch.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { Vault } from '../secrets/vault.js';
import { AdminEvents } from '../jobs/admin-events.js';
import { BackupJobs } from '../jobs/backups.js';
import { DrillJobs } from '../jobs/drills.js';
import { Jobs } from '../jobs/jobs.js';
import { settleLeftovers, type LeftoverReport } from '../jobs/leftovers.js';
import { RestoreJobs } from '../jobs/restores.js';
import { ModelPulls, type PullDeps } from '../jobs/pulls.js';
import { ensureLocalRepository } from '../repository/repositories.js';
import { reconcilePassphraseAtStart } from '../backup/passphrase-reconcile.js';
import { backupHealthChecks } from './backup-health-checks.js';
import { drillHealthChecks } from './drill-health-checks.js';
import { coreHealthChecks } from './health-checks.js';
import { acquireInstanceLock } from './instance-lock.js';
import { assertStoreWhole } from '../restore/damaged-store.js';
import { engineOptions } from './engine-options.js';
import { startHousekeeping } from './housekeeping.js';
import { removeServiceFile, writeServiceFile } from '../store/service-file.js';
import { alsoOnIpv6Loopback, assertLoopbackHost, listenOrExplain } from './port.js';
import { LanListener, type LanListenerOptions } from './lan/lan-listener.js';
import type { SwitchDataDir } from '../service/switch-request.js';
import { ConversationSearch } from '../tasks/conversation-search.js';
import { resticCacheDir, storePath } from '../files/data-dir-layout.js';
import type { RunKind } from '../contract/runs.js';

export interface ApplianceOptions {
  dataDir: string;
  /** Opt-in secrets file for headless servers without a keychain (else the OS keychain). */
  secretsFile?: string;
  /** The quick start (`npm start`): no keychain → the default secrets file, said loudly. */
  secretsFallbackToFile?: boolean;
  /** Tests of other parts may pass a store; the default is chosen by openSecretStore. */
  secretStore?: SecretStore;
  port?: number;
  host?: string;
  clock?: Clock;
  logger?: Logger;
  engine?: (settings: Settings) => Engine;
  /** The host's way to serve another data dir ("open the restored data"; see data-dir-switch.ts).
   *  Without it, POST /admin/restore/{id}/open answers that this Sanad cannot switch. */
  onSwitchDataDir?: SwitchDataDir;
  /** A one-time GUI login code made before this appliance started (a switch hands it out early). */
  loginCode?: string;
  /** The network listener for devices (`sanad serve --lan [--lan-port N]`); else the saved switch. */
  lan?: LanListenerOptions;
  /** Tests: a model download's retries and Range chunk size (jobs/pulls.ts). */
  pullDownload?: PullDeps['download'];
  /** What the OS says about battery and metered connections, for schedules that hold a backup
   *  (the desktop app passes Electron's powerMonitor answer; default: schedule/os-conditions.ts). */
  conditions?: OsConditions;
  /** Tests: the WAL's fsync on the thread pool (store/durable-commits.ts), to hold or count it. */
  fsync?: Fsync;
  /** Tests: the runs' watchdog limits by kind (jobs.ts STALL_MS), a few seconds instead of minutes. */
  stallMs?: Partial<Record<RunKind, number>>;
}

export interface Appliance {
  url: string;
  port: number;
  ctx: ServiceContext;
  recovery: RecoveryReport;
  /** Backup, drill and restore runs a crash had left `running`, settled before the port opened. */
  leftovers: LeftoverReport;
  /** A fresh one-time GUI login URL (the previous one stops working). */
  loginUrl(): string;
  /** Stops everything; the running jobs get `jobsWaitMs` (default 15 s) to end before it goes on. */
  close(options?: { jobsWaitMs?: number }): Promise<void>;
}

export async function startAppliance(options: ApplianceOptions): Promise<Appliance> {
  const { dataDir } = options;
  // Before anything: the GUI, /admin and the login link never cross the network in clear text.
  assertLoopbackHost(options.host ?? '127.0.0.1');
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger({ level: levelFromEnv(process.env.SANAD_LOG) });
  // Before anything is written: a data dir path that is not a folder, or no usable keychain (or
  // opted-in file), and nothing starts.
  assertDataDirUsable(dataDir);
  const opened = options.secretStore ?? (await openSecretStore(dataDir, options.secretsFile, { fallbackToFile: options.secretsFallbackToFile ?? false }));
  // Set once the store is open: the keychain's alert is raised there (keychain-watch.ts).
  const watch = new KeychainWatch();
  const secretStore = new WatchedSecretStore(opened, watch);
  makeDataDir(dataDir);
  const lock = acquireInstanceLock(dataDir);
  const cleanups: Array<() => unknown> = [() => lock.release()];
  try {
    assertStoreWhole(dataDir);
    const db = openStore(storePath(dataDir));
    cleanups.unshift(() => db.close());
    const durable = DurableCommits.attach(db, storePath(dataDir), options.fsync);
    cleanups.unshift(() => durable.close());
    watch.attach(db, clock, logger);
    const master = await ensureMasterSecrets(db, secretStore, clock);
    // Every later command (and the next start) finds the file without being told again.
    if (opened instanceof SecretsFileStore) {
      writeSecretsLocation(dataDir, { kind: 'file', path: opened.path });
      // The plain sentence is the host's to say (serve prints it); the log keeps the fact.
      logger.warn('the master secrets are in a file, not in the OS keychain', { path: opened.path });
    }
    logger.addSecret(master.vaultKey.toString('base64'));
    logger.addSecret(master.resticPassphrase);
    await reconcilePassphraseAtStart({ db, dataDir, clock, logger, store: secretStore });
    const vault = new Vault(db, master.vaultKey, clock);
    ensureLocalRepository(db, dataDir, clock);
    const bootId = randomBytes(8).toString('hex');
    const startedAt = unixSeconds(clock);
    releaseStaleReservations(db, bootId);
    const disk = new DiskState(dataDir, storePath(dataDir), clock);
    cleanups.unshift(() => disk.close());
    const hub = new EventHub();
    const ledger = new TaskLedger(db, clock, hub, disk);
    const recovery = recoverTasks(db, ledger);
    if (recovery.examined > 0) logger.info('restart recovery', { examined: recovery.examined, moved: recovery.moved.length });
    // restic's password files from a run that was killed (SIGKILL, power cut): nothing else runs yet.
    clearSecretFiles(resticCacheDir(dataDir));
    const leftovers = await settleLeftovers({ db, dataDir, clock, logger, secretsFor: (dir) => secretStore.forDataDir?.(dir) ?? null });
    // Scratch copies of generations a killed process was looking inside (history/): nothing reads them yet.
    await removeLeftoverHistoryScratch(dataDir);

    let settings = readSettings(db);
    const engine = options.engine ? options.engine(settings) : new LlamaEngine(engineOptions(settings));
    cleanups.unshift(() => engine.close());
    const models = new ModelRegistry(db, clock);
    const runner = new TaskRunner(db, ledger, engine, models, logger, {
      concurrency: settings.max_concurrent_generations,
      defaultMaxOutputTokens: settings.max_output_tokens_limit,
    });
    cleanups.unshift(() => runner.stop());

    const adminEvents = new AdminEvents(clock);
    const jobs = new Jobs({ clock, logger, store: { db, dataDir }, events: adminEvents, ...(options.stallMs ? { stallMs: options.stallMs } : {}) });
    let jobsWaitMs = 15_000;
    const lan = new LanListener(() => ctx, logger, options.lan);
    watch.onChange(() => adminEvents.publish('alerts.changed', { alerts: ctx.backups.status().alerts }));
    const deletions = DeletionJournal.of(dataDir);
    const turns = new Turns({
      db,
      writer: db,
      ledger,
      creates: new CreateBatcher(ledger, (fn) => durable.afterSync(fn)),
      runner,
      hub,
      models,
      deletions,
      clock,
      settings: () => settings,
    });
    const conversationSearch = new ConversationSearch(storePath(dataDir));
    cleanups.unshift(() => conversationSearch.close());
    const ctx: ServiceContext = {
      db,
      writer: db,
      clock,
      logger,
      ledger,
      hub,
      runner,
      models,
      bootId,
      proofKey: randomBytes(32),
      disk,
      deletions,
      turns,
      durable,
      dataDir,
      secrets: { store: secretStore, master, vault },
      jobs,
      backups: new BackupJobs({
        db,
        dataDir,
        clock,
        logger,
        store: secretStore,
        settings: () => settings,
        jobs,
        events: adminEvents,
        liveAlerts: () => [...disk.alerts(), ...secretsFileAlerts(opened, startedAt)],
        ...(options.conditions ? { conditions: options.conditions } : {}),
      }),
      drills: new DrillJobs({ db, dataDir, clock, logger, store: secretStore, settings: () => settings, jobs, events: adminEvents }),
      restores: new RestoreJobs({ db, clock, jobs, events: adminEvents }),
      pulls: new ModelPulls({
        db,
        dataDir,
        clock,
        logger,
        jobs,
        store: secretStore,
        registry: models,
        settings: () => settings,
        events: adminEvents,
        ...(options.pullDownload ? { download: options.pullDownload } : {}),
      }),
      generations: new GenerationViews({
        dataDir,
        jobs,
        events: adminEvents,
        clock,
        logger,
        source: (repo) =>
          repositorySourceFor({ db, dataDir, repoName: repo, vault, secretsDescription: secretStore.description, knownPassphrase: master.resticPassphrase }),
      }),
      settings: () => settings,
      updateSettings: (patch) => (settings = writeSettings(db, patch, unixSeconds(clock))),
      login: new LoginCodes(options.loginCode, clock),
      ...(options.onSwitchDataDir ? { switchDataDir: options.onSwitchDataDir } : {}),
      healthChecks: [],
      adminEvents,
      address: { host: options.host ?? '127.0.0.1', port: 0 },
      inMemory: new ModelsInMemory(engine, models),
      conversationSearch,
      lan,
    };
    ctx.healthChecks.push(...coreHealthChecks(ctx), ...backupHealthChecks(ctx), ...drillHealthChecks(ctx));
    // The GUI and the tray hear of a full disk (and of space coming back) as an alert change.
    cleanups.unshift(
      disk.onChange(() => {
        logger.warn(disk.isFull() ? 'the disk is full: writes are refused until space returns' : 'the disk has space again: writes resume');
        adminEvents.publish('alerts.changed', { alerts: ctx.backups.status().alerts });
      }),
    );
    const app = buildServer(ctx);
    cleanups.unshift(() => app.close());
    await listenOrExplain(app, ctx.address.host, options.port ?? 7437);
    const addr = app.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : (options.port ?? 7437);
    ctx.address.port = port;
    if (ctx.address.host === '127.0.0.1') {
      const closeV6 = await alsoOnIpv6Loopback(app, port);
      if (closeV6) cleanups.unshift(closeV6);
    }
    const url = serviceBaseUrl(ctx);
    // After the main listener: a saved switch whose port is taken is said in status, not fatal.
    await lan.start();
    cleanups.unshift(() => lan.stop());
    runner.start();
    jobs.startSchedules();
    // Downloads a stop or a crash cut short go on from their partial files.
    ctx.pulls.resumeLeftovers();
    // Before the server and the store close: every job this appliance started is aborted and
    // waited for (restic removes its lock, a restore puts its target back).
    // After the jobs (a read in flight is aborted there): every opened generation copy removed.
    cleanups.unshift(() => ctx.generations.stop());
    cleanups.unshift(() => jobs.stop(jobsWaitMs));
    cleanups.unshift(startHousekeeping(ctx));
    writeServiceFile(dataDir, { pid: process.pid, port, url, proof_key: ctx.proofKey.toString('hex') });
    cleanups.unshift(() => removeServiceFile(dataDir));
    logger.info('sanad serving', { url, data_dir: dataDir });

    let closing: Promise<void> | null = null;
    return {
      url,
      port,
      ctx,
      recovery,
      leftovers,
      loginUrl: () => `${url}/login?code=${ctx.login.issue()}`,
      close: (closeOptions) => {
        if (closeOptions?.jobsWaitMs !== undefined) jobsWaitMs = closeOptions.jobsWaitMs;
        return (closing ??= runCleanups(cleanups, logger));
      },
    };
  } catch (err) {
    await runCleanups(cleanups, logger);
    throw err;
  }
}

async function runCleanups(cleanups: Array<() => unknown>, logger: Logger): Promise<void> {
  for (const cleanup of cleanups) {
    try {
      await cleanup();
    } catch (err) {
      logger.warn('shutdown step failed', { error: err instanceof Error ? err.message : String(err) });
    }
  }
}
