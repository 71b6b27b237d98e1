// Runs bin/sanad.js with a chosen environment (e.g. no session bus); optionally stops a `serve`
// with SIGTERM as soon as it printed its address.
import { spawn } from 'node:child_process';
import { BIN } from '../cli/run-cli.js';

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  pid: number | undefined;
}

export function runSanad(args: string[], options: { env?: Record<string, string>; stopAfterStart?: boolean; stdin?: string } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string | undefined> = { ...process.env, SANAD_THREADS: '1', SANAD_GPU: 'off' };
    for (const [k, v] of Object.entries(options.env ?? {})) {
      if (v === '') delete env[k];
      else env[k] = v;
    }
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.end(options.stdin ?? '');
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (options.stopAfterStart && stdout.includes('\n')) child.kill('SIGTERM');
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, pid: child.pid });
    });
  });
}
