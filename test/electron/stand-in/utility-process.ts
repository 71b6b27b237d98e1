// The stand-in `utilityProcess`: fork() runs the module in a Node child, as Electron runs it in a
// Node utility process inside the app, and refuses what Electron refuses: a fork before ready, a
// relative path, stdin other than 'ignore', an option Electron does not know. Each fork is recorded.
//
// With SANAD_STAND_IN_RUN_AS_NODE_FUSE=off the stand-in is what a packaged app is: its RunAsNode
// fuse is off, so process.execPath started with ELECTRON_RUN_AS_NODE=1 is not Node but a second
// Sanad, which the single-instance lock quits at once with no output. Code that spawns
// process.execPath as Node then fails here as it would for a person; a utility process still works.
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { ForkOptions } from 'electron';
import { app } from './app.js';
import { unknownKeys } from './declared-keys.js';
import { reject } from './recorder.js';

/** The real Node, before the fuse's stand-in may replace process.execPath. */
const NODE = process.execPath;

if (process.env.SANAD_STAND_IN_RUN_AS_NODE_FUSE === 'off') {
  const dir = mkdtempSync(join(tmpdir(), 'sanad-packaged-'));
  const binary = join(dir, 'sanad');
  writeFileSync(binary, '#!/bin/sh\n# A packaged Sanad with the RunAsNode fuse off: a second instance, which quits at once.\nexit 0\n');
  chmodSync(binary, 0o755);
  process.execPath = binary;
}

export interface ForkRecord {
  modulePath: string;
  serviceName: string;
  args: string[];
  exitCode: number | null;
}

export const forks: ForkRecord[] = [];

export class StandInUtilityProcess extends EventEmitter {
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  private readonly child: ChildProcess;

  constructor(modulePath: string, args: string[], options: ForkOptions) {
    super();
    const stdio = typeof options.stdio === 'string' ? ['ignore', options.stdio, options.stdio] : (options.stdio ?? ['ignore', 'inherit', 'inherit']);
    const io = (v: string | undefined): 'pipe' | 'ignore' | 'inherit' =>
      v === 'pipe' || v === 'ignore'
        ? v
        : v === undefined || v === 'inherit'
          ? 'inherit'
          : reject(`utilityProcess.fork: stdio "${v}" is not pipe, ignore or inherit`);
    // Electron's Env is an open object of strings; Node's spawn wants a string dictionary.
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(options.env ?? process.env)) if (typeof v === 'string') env[k] = v;
    if (stdio[0] !== 'ignore') reject('utilityProcess.fork: stdin can only be "ignore"');
    const record: ForkRecord = { modulePath, serviceName: options.serviceName ?? 'Node Utility Process', args, exitCode: null };
    forks.push(record);
    this.child = spawn(NODE, [...(options.execArgv ?? []), modulePath, ...args], {
      env,
      cwd: options.cwd,
      stdio: ['ignore', io(stdio[1]), io(stdio[2])],
    });
    this.stdout = this.child.stdout;
    this.stderr = this.child.stderr;
    this.child.once('spawn', () => this.emit('spawn'));
    this.child.once('exit', (code, signal) => {
      // Electron gives the waitpid status; a killed process has no code of its own.
      record.exitCode = code ?? (signal === null ? 0 : 1);
      this.emit('exit', record.exitCode);
    });
  }

  get pid(): number | undefined {
    return this.child.exitCode === null ? this.child.pid : undefined;
  }

  kill(): boolean {
    return this.child.kill('SIGTERM');
  }
}

export const utilityProcess = {
  fork(modulePath: string, args: string[] = [], options: ForkOptions = {}): StandInUtilityProcess {
    if (!app.isReady()) reject('utilityProcess.fork can only be called after the ready event');
    if (!isAbsolute(modulePath)) reject(`utilityProcess.fork needs an absolute module path, got "${modulePath}"`);
    const unknown = unknownKeys(options, 'ForkOptions');
    if (unknown.length > 0) reject(`utilityProcess.fork options Electron does not know: ${unknown.join(', ')}`);
    return new StandInUtilityProcess(modulePath, args, options);
  },
};
