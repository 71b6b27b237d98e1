// Runs the real `bin/sanad.js` as a child process and collects what it printed.
import { spawn, type ChildProcess } from 'node:child_process';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../../bin/sanad.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

const running = new Set<ChildProcess>();
// A test that fails half-way must not leave a child behind.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export function runCli(args: string[], timeoutMs = 60_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, SANAD_THREADS: '1', SANAD_GPU: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`sanad ${args.join(' ')} did not finish in ${timeoutMs} ms:\n${stderr}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A failure the way the CLI design wants it: one line on stderr, no stack, nothing on stdout. */
export function assertOneLineError(r: CliResult, code: number, pattern: RegExp): void {
  const where = `exit ${String(r.code)}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;
  assert.equal(r.code, code, where);
  assert.equal(r.stdout, '', where);
  const lines = r.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line on stderr: ${where}`);
  assert.match(r.stderr, pattern, where);
  assert.ok(!r.stderr.includes('    at '), `no stack trace: ${where}`);
  assert.match(r.stderr, /^sanad: /, where);
}

/** Parses the single JSON line a `--json` command prints on stdout. */
export function jsonOut(r: CliResult): unknown {
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one JSON line on stdout, got: ${r.stdout}`);
  return JSON.parse(lines[0] ?? '');
}
