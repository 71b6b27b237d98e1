// THE one way Sanad starts a child process (house style 3). Every child:
// - runs without a shell (`shell: false`), so no argument is ever interpreted;
// - gets a minimal environment (child-env.ts) plus what the caller passes: no parent secrets leak;
// - receives secrets only through `env` or a 0600 file (`withSecretFile`), never argv;
// - on abort gets SIGINT first (restic removes its lock on SIGINT), SIGKILL after `killGraceMs`;
// - is listed in a registry until it exits (runningChildren: what the shell's Quit reports; a job's
//   children stop through its AbortSignal, so one owner never stops another's);
// - has its output split into lines, with bounded tails of stderr and of unconsumed stdout;
// - is logged at debug level with every `secrets` value redacted from its args.
import { spawn } from 'node:child_process';
import { childEnv } from './child-env.js';
import { lowPriorityLaunch, reniceLow } from './low-priority.js';
import { LineSplitter, RingBuffer } from './line-buffer.js';
import { silentLogger, type Logger } from '../log/logger.js';
import { systemClock } from '../clock.js';

export { withSecretFile } from './secret-file.js';
export { safeBaseEnv } from './child-env.js';

export interface RunChildOptions {
  command: string;
  args: string[];
  /** Merged onto the minimal safe base environment; the caller's values win. */
  env: Record<string, string>;
  cwd?: string;
  signal?: AbortSignal;
  /** Return true when the line was understood (e.g. a JSON message), so it is not kept in stdoutTail. */
  onStdoutLine?: (line: string) => boolean | void;
  onStderrLine?: (line: string) => void;
  /** Values redacted from the logged command; the logger also scrubs them from later entries. */
  secrets?: string[];
  /** Time between SIGINT and SIGKILL after an abort. Default 10 s. */
  killGraceMs?: number;
  /** Lines kept in each tail. Default 200. */
  tailLines?: number;
  logger?: Logger;
  /** Below the engine: nice and idle I/O (low-priority.ts), for work nobody waits on. */
  lowPriority?: boolean;
}

export interface ChildResult {
  code: number | null;
  signal: string | null;
  stdoutTail: string[];
  stderrTail: string[];
}

export interface RunningChild {
  id: number;
  pid: number | undefined;
  command: string;
  /** The real argv: it holds no secret by construction, and tests audit exactly this. */
  args: readonly string[];
  startedAt: number;
}

interface Entry extends RunningChild {
  stop(graceMs: number): void;
  done: Promise<unknown>;
}

const registry = new Map<number, Entry>();
let nextId = 1;

export function runningChildren(): RunningChild[] {
  return [...registry.values()].map(({ id, pid, command, args, startedAt }) => ({ id, pid, command, args, startedAt }));
}

/** SIGINT to every running child, SIGKILL to those still alive after `graceMs`; resolves when all exited. */
export async function stopAllChildren(graceMs: number): Promise<void> {
  const entries = [...registry.values()];
  for (const e of entries) e.stop(graceMs);
  await Promise.allSettled(entries.map((e) => e.done));
}

export function redactArgs(args: readonly string[], secrets: readonly string[]): string[] {
  const real = secrets.filter((s) => s.length > 0);
  return args.map((a) => real.reduce((acc, s) => acc.split(s).join('[redacted]'), a));
}

export function runChild(options: RunChildOptions): Promise<ChildResult> {
  const log = options.logger ?? silentLogger;
  const secrets = options.secrets ?? [];
  for (const s of secrets) log.addSecret(s);
  if (options.signal?.aborted) {
    return Promise.reject(new Error(`${options.command} was not started because the operation was already cancelled.`));
  }
  log.debug('child start', { command: options.command, args: redactArgs(options.args, secrets), cwd: options.cwd });

  const launch = options.lowPriority
    ? lowPriorityLaunch(options.command, options.args)
    : { command: options.command, args: options.args, reniceAfterStart: false };
  const child = spawn(launch.command, launch.args, {
    shell: false,
    cwd: options.cwd,
    env: childEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
  if (launch.reniceAfterStart && options.lowPriority && child.pid !== undefined) reniceLow(child.pid);
  let killTimer: NodeJS.Timeout | undefined;
  const stop = (graceMs: number): void => {
    if (child.exitCode !== null || child.signalCode !== null || killTimer) return;
    child.kill('SIGINT');
    killTimer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  };
  const tailLines = options.tailLines ?? 200;
  const stdoutTail = new RingBuffer(tailLines);
  const stderrTail = new RingBuffer(tailLines);
  // A throwing callback must neither crash Sanad (it runs in a stream event) nor leave the child
  // running: the child is stopped and the run rejects with the callback's error once it exited.
  let callbackError: Error | undefined;
  const guarded = (fn: () => boolean | void): boolean | void => {
    try {
      return fn();
    } catch (error) {
      callbackError ??= error instanceof Error ? error : new Error(`A line callback threw: ${String(error)}.`);
      stop(options.killGraceMs ?? 10_000);
      return false;
    }
  };
  const out = new LineSplitter((line) => {
    if (guarded(() => options.onStdoutLine?.(line)) !== true) stdoutTail.push(line);
  });
  const err = new LineSplitter((line) => {
    stderrTail.push(line);
    guarded(() => options.onStderrLine?.(line));
  });
  child.stdout.on('data', (chunk: Buffer) => out.write(chunk));
  child.stderr.on('data', (chunk: Buffer) => err.write(chunk));

  const onAbort = (): void => stop(options.killGraceMs ?? 10_000);
  options.signal?.addEventListener('abort', onAbort, { once: true });

  const id = nextId++;
  const done = new Promise<ChildResult>((resolve, reject) => {
    child.once('error', (error) => {
      cleanup();
      reject(error);
    });
    // 'close' (not 'exit'): all output has been read by then, so the tails are complete.
    child.once('close', (code, signal) => {
      out.end();
      err.end();
      cleanup();
      log.debug('child exit', { command: options.command, pid: child.pid, code, signal });
      if (callbackError !== undefined) return reject(callbackError);
      resolve({ code, signal, stdoutTail: stdoutTail.lines(), stderrTail: stderrTail.lines() });
    });
  });
  function cleanup(): void {
    if (killTimer) clearTimeout(killTimer);
    options.signal?.removeEventListener('abort', onAbort);
    registry.delete(id);
  }
  registry.set(id, { id, pid: child.pid, command: options.command, args: [...options.args], startedAt: systemClock.now(), stop, done });
  return done;
}
