// The test's side of a desktop app run: starts the app's compiled main process
// (dist/electron/main.js) in its own Node process with the stand-in Electron, a HOME of its own and
// the data dir the test prepared, and talks to the stand-in over the fork IPC channel.
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Command, Reply, StandInState } from './protocol.js';

const MAIN = fileURLToPath(new URL('../../../electron/main.js', import.meta.url));
const REGISTER = new URL('./register.js', import.meta.url).href;

function isReply(v: unknown): v is Reply {
  return typeof v === 'object' && v !== null && 'id' in v && 'ok' in v;
}

function isState(v: unknown): v is StandInState {
  return typeof v === 'object' && v !== null && 'app' in v && 'windows' in v && 'violations' in v && Array.isArray(v.windows);
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export interface LaunchOptions {
  home: string;
  dataDir: string;
  args?: string[];
  env?: Record<string, string>;
}

export class DesktopApp {
  readonly violations: string[] = [];
  readonly exited: Promise<number | null>;
  private readonly pending = new Map<number, (reply: Reply) => void>();
  private readonly lines: string[] = [];
  private nextId = 1;
  exitCode: number | null | undefined = undefined;

  private constructor(readonly child: ChildProcess) {
    child.on('message', (m: unknown) => {
      if (isReply(m)) {
        this.pending.get(m.id)?.(m);
        this.pending.delete(m.id);
      } else if (typeof m === 'object' && m !== null && 'notice' in m && m.notice === 'violation' && 'message' in m) {
        this.violations.push(String(m.message));
      }
    });
    const keep = (d: Buffer): void => {
      this.lines.push(
        ...d
          .toString()
          .split('\n')
          .filter((l) => l !== ''),
      );
      if (this.lines.length > 400) this.lines.splice(0, this.lines.length - 400);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.exited = new Promise((resolve) =>
      child.once('exit', (code) => {
        this.exitCode = code;
        for (const answer of this.pending.values()) answer({ id: 0, ok: false, error: `the app exited (${String(code)})` });
        this.pending.clear();
        resolve(code);
      }),
    );
  }

  static launch(options: LaunchOptions): DesktopApp {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: options.home,
      SANAD_DATA_DIR: options.dataDir,
      SANAD_THREADS: '1',
      SANAD_GPU: 'off',
      SANAD_LOG: 'debug',
      ...options.env,
    };
    // Electron's paths and the autostart entry follow HOME, as on a fresh machine.
    for (const k of ['XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME']) delete env[k];
    const child = fork(MAIN, options.args ?? [], { execArgv: ['--import', REGISTER], env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    return new DesktopApp(child);
  }

  get pid(): number {
    if (this.child.pid === undefined) throw new Error('the app did not start');
    return this.child.pid;
  }

  send(command: Command): Promise<unknown> {
    if (this.exitCode !== undefined) return Promise.reject(new Error(`the app has exited (${String(this.exitCode)})\n${this.logTail()}`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, (reply) => (reply.ok ? resolve(reply.value) : reject(new Error(`${command.op}: ${reply.error}`))));
      this.child.send({ id, command });
    });
  }

  async state(): Promise<StandInState> {
    const value = await this.send({ op: 'state' });
    if (!isState(value)) throw new Error('the stand-in answered no state');
    return value;
  }

  /** Polls the stand-in's state until `pick` returns something (not undefined / false). */
  async until<T>(pick: (s: StandInState) => T | undefined | false, what: string, timeoutMs = 60_000): Promise<T> {
    const deadline = performance.now() + timeoutMs;
    let last: StandInState | null = null;
    while (performance.now() < deadline) {
      last = await this.state();
      const got = pick(last);
      if (got !== undefined && got !== false) return got;
      await pause(200);
    }
    throw new Error(`timed out waiting for ${what}; last state: ${JSON.stringify(last?.tray ?? null)}\n${this.logTail()}`);
  }

  async pageEval(expression: string): Promise<unknown> {
    return this.send({ op: 'page-eval', expression });
  }

  logTail(n = 60): string {
    return this.lines.slice(-n).join('\n');
  }

  /** The app's child processes and theirs (restic), by /proc. */
  descendants(): Array<{ pid: number; cmdline: string }> {
    const parents = new Map<number, number>();
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      } catch {
        // gone meanwhile
      }
    }
    const out: Array<{ pid: number; cmdline: string }> = [];
    const walk = (pid: number): void => {
      for (const [child, parent] of parents) {
        if (parent !== pid) continue;
        let cmdline = '';
        try {
          cmdline = readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0').join(' ').trim();
        } catch {
          // gone meanwhile
        }
        out.push({ pid: child, cmdline });
        walk(child);
      }
    };
    walk(this.pid);
    return out;
  }

  /** Ends the process if a test left it running (a failed assertion). */
  async kill(): Promise<void> {
    if (this.exitCode !== undefined) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }
}
