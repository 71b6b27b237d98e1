// The stand-in `app`: names and paths as Electron computes them on Linux, the single-instance lock
// (a lock file plus a unix socket in userData, as Electron's own SingletonLock/SingletonSocket: a
// second process really is refused and really hands its argv to the first), the ready and quit
// sequence, sandboxing and login items.
import { EventEmitter } from 'node:events';
import { readFileSync, rmSync, writeFileSync, mkdirSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { App, LoginItemSettings, LoginItemSettingsOptions, Settings } from 'electron';
import { reject, standInEvent } from './recorder.js';

type AppApi = Pick<
  App,
  | 'setName'
  | 'getName'
  | 'getVersion'
  | 'getLocale'
  | 'setPath'
  | 'getPath'
  | 'getAppPath'
  | 'enableSandbox'
  | 'requestSingleInstanceLock'
  | 'releaseSingleInstanceLock'
  | 'quit'
  | 'exit'
  | 'relaunch'
  | 'whenReady'
  | 'isReady'
  | 'isPackaged'
  | 'getLoginItemSettings'
  | 'setLoginItemSettings'
>;
type PathName = Parameters<App['getPath']>[0];

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export class StandInApp extends EventEmitter implements AppApi {
  readonly isPackaged = false;
  name = 'Electron';
  sandbox = false;
  hasLock = false;
  ready = false;
  readonly secondInstances: Array<{ argv: string[]; cwd: string }> = [];
  loginItem: Settings | null = null;
  private readonly paths = new Map<string, string>();
  private readonly readyPromise: Promise<void>;
  private lockServer: Server | null = null;
  private quitting = false;
  /** Work that must end before the process exits (a second instance's message to the first). */
  private readonly beforeExit: Array<Promise<unknown>> = [];
  /** Closes the windows and the browser; set by the window module. */
  closeAll: () => Promise<void> = async () => undefined;
  windowsClose: () => boolean = () => true;

  constructor() {
    super();
    // Electron is ready once the entry script has run; an ES module entry's imports load over
    // several turns of the event loop, so the stand-in becomes ready when the app first waits for
    // it (whenReady), which main.ts does after its synchronous start-up.
    this.readyPromise = new Promise((resolve) => {
      this.becomeReady = () => {
        this.becomeReady = () => undefined;
        setImmediate(() => {
          this.ready = true;
          this.emit('ready', standInEvent({}), {});
          resolve();
        });
      };
    });
  }

  private becomeReady: () => void = () => undefined;

  setName(name: string): void {
    this.name = name;
  }

  getName(): string {
    return this.name;
  }

  /** As in the packaged app: the version in the package.json at the app's root (dist/electron/main.js → ../../). */
  getVersion(): string {
    const pkg: unknown = JSON.parse(readFileSync(join(dirname(process.argv[1] ?? '.'), '..', '..', 'package.json'), 'utf8'));
    return typeof pkg === 'object' && pkg !== null && 'version' in pkg && typeof pkg.version === 'string'
      ? pkg.version
      : reject('the app has no package.json version');
  }

  /** As Electron on Linux: the locale from the environment (LC_ALL, LC_MESSAGES, LANG), as a BCP 47 tag. */
  getLocale(): string {
    const env = process.env.LC_ALL || process.env.LC_MESSAGES || process.env.LANG || '';
    const tag = env.split('.')[0]?.replace('_', '-') ?? '';
    return tag === '' || tag === 'C' || tag === 'POSIX' ? 'en-US' : tag;
  }

  setPath(name: PathName | 'userData', path: string): void {
    if (!path.startsWith('/')) reject(`app.setPath('${name}') needs an absolute path, got "${path}"`);
    this.paths.set(name, path);
  }

  /**
   * The app's own folder: the checkout (dist/electron/main.js runs from it), or the folder a test
   * names in SANAD_STANDIN_APP_PATH to give the app files of its own (trusted update keys).
   */
  getAppPath(): string {
    return process.env.SANAD_STANDIN_APP_PATH ?? fileURLToPath(new URL('../../../../', import.meta.url));
  }

  getPath(name: PathName): string {
    const set = this.paths.get(name);
    if (set !== undefined) return set;
    const appData = process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
    switch (name) {
      case 'home':
        return homedir();
      case 'appData':
        return appData;
      case 'userData':
        return join(appData, this.name);
      case 'sessionData':
        return this.getPath('userData');
      case 'temp':
        return tmpdir();
      case 'downloads':
        return join(homedir(), 'Downloads');
      // Linux and Windows: inside userData (Electron's app.getPath docs).
      case 'logs':
        return join(this.getPath('userData'), 'logs');
      default:
        return reject(`the stand-in knows no app.getPath('${name}')`);
    }
  }

  enableSandbox(): void {
    if (this.ready) reject('app.enableSandbox() must be called before the app is ready');
    this.sandbox = true;
  }

  requestSingleInstanceLock(): boolean {
    const dir = this.getPath('userData');
    mkdirSync(dir, { recursive: true });
    const lock = join(dir, 'SingletonLock');
    const socket = join(dir, 'SingletonSocket');
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
    } catch {
      const holder = Number(readFileSync(lock, 'utf8'));
      if (Number.isInteger(holder) && holder !== process.pid && alive(holder)) {
        this.beforeExit.push(this.handOver(socket));
        return false;
      }
      // A lock left by a process that died: take it over, as Electron does.
      writeFileSync(lock, String(process.pid));
    }
    this.hasLock = true;
    rmSync(socket, { force: true });
    this.lockServer = createServer((conn) => {
      let data = '';
      conn.on('data', (d: Buffer) => (data += d.toString()));
      conn.on('end', () => {
        const parsed: unknown = JSON.parse(data);
        if (
          typeof parsed !== 'object' ||
          parsed === null ||
          !('argv' in parsed) ||
          !('cwd' in parsed) ||
          !Array.isArray(parsed.argv) ||
          typeof parsed.cwd !== 'string'
        )
          return;
        const argv = parsed.argv.map(String);
        this.secondInstances.push({ argv, cwd: parsed.cwd });
        this.emit('second-instance', standInEvent({}), argv, parsed.cwd, {});
      });
    });
    this.lockServer.listen(socket);
    this.lockServer.unref();
    return true;
  }

  private handOver(socket: string): Promise<void> {
    return new Promise((resolve) => {
      const conn = connect(socket, () => conn.end(JSON.stringify({ argv: process.argv, cwd: process.cwd() })));
      conn.on('close', () => resolve());
      conn.on('error', () => resolve());
    });
  }

  whenReady(): Promise<void> {
    this.becomeReady();
    return this.readyPromise;
  }

  isReady(): boolean {
    return this.ready;
  }

  /** Electron's order: before-quit (may be prevented), each window's close, will-quit, quit, exit. */
  quit(): void {
    if (this.quitting) return;
    const before = standInEvent({});
    this.emit('before-quit', before);
    if (before.defaultPrevented) return;
    if (!this.windowsClose()) return;
    const will = standInEvent({});
    this.emit('will-quit', will);
    if (will.defaultPrevented) return;
    this.emit('quit', standInEvent({}), 0);
    this.exit(0);
  }

  exit(exitCode = 0): void {
    if (this.quitting) return;
    this.quitting = true;
    void this.finish(exitCode);
  }

  relaunch(): void {
    reject('app.relaunch() is not supported by the stand-in (a test would have to start the new process itself)');
  }

  getLoginItemSettings(_options?: LoginItemSettingsOptions): LoginItemSettings {
    return {
      openAtLogin: this.loginItem?.openAtLogin ?? false,
      wasOpenedAtLogin: false,
      status: 'not-registered',
      executableWillLaunchAtLogin: false,
      launchItems: [],
    };
  }

  setLoginItemSettings(settings: Settings): void {
    if (process.platform === 'linux') reject('app.setLoginItemSettings does nothing on Linux (Electron supports it on macOS and Windows only)');
    this.loginItem = settings;
  }

  /** Lets another instance take the lock while this one still runs (Electron removes its lock files). */
  releaseSingleInstanceLock(): void {
    if (!this.hasLock) return;
    this.hasLock = false;
    this.lockServer?.close();
    this.lockServer = null;
    for (const f of ['SingletonLock', 'SingletonSocket']) {
      try {
        unlinkSync(join(this.getPath('userData'), f));
      } catch {
        // already gone
      }
    }
  }

  private async finish(code: number): Promise<void> {
    await Promise.allSettled(this.beforeExit);
    await this.closeAll();
    this.releaseSingleInstanceLock();
    process.exitCode = code;
    this.onExit(code);
  }

  /** Set by electron.ts: tells the test, then ends the process. */
  onExit: (code: number) => void = (code) => process.exit(code);
}

export const app = new StandInApp();
