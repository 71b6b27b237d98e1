// `sanad serve` as a real child process, for crash tests: start, SIGKILL, start again.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Api } from './api.js';
import { freePort } from './ports.js';

const BIN = fileURLToPath(new URL('../../../bin/sanad.js', import.meta.url));
/** The test build of `sanad` whose serve runs on the soak's moved clock (serve-moved-clock.ts). */
export const MOVED_CLOCK_BIN = fileURLToPath(new URL('./serve-moved-clock.js', import.meta.url));

export interface ServiceProcess {
  url: string;
  /** The one-time GUI login link `sanad serve` printed. */
  loginUrl: string;
  port: number;
  api: Api;
  child: ChildProcess;
  stderr(): string;
  /** SIGKILL, and wait until the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM (a clean stop), and wait for the exit code. */
  stop(): Promise<number | null>;
}

export async function startServiceProcess(
  dataDir: string,
  token: string | null,
  env: Record<string, string> = {},
  args: string[] = [],
  bin: string = BIN,
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', String(await freePort()), '--data-dir', dataDir, '--json', ...args], {
    env: { ...process.env, SANAD_THREADS: '1', SANAD_GPU: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const info = await new Promise<{ url: string; port: number; loginUrl: string }>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      // The caller never gets a handle to kill, so a child that did not start must not outlive this.
      child.kill('SIGKILL');
      reject(new Error(`sanad serve did not start in time:\n${err}`));
    }, 30_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      clearTimeout(timer);
      const parsed: unknown = JSON.parse(line);
      if (
        typeof parsed === 'object' &&
        parsed !== null &&
        'url' in parsed &&
        'port' in parsed &&
        typeof parsed.url === 'string' &&
        typeof parsed.port === 'number'
      ) {
        const loginUrl = 'login_url' in parsed && typeof parsed.login_url === 'string' ? parsed.login_url : '';
        resolve({ url: parsed.url, port: parsed.port, loginUrl });
      } else reject(new Error(`unexpected serve output: ${line}`));
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`sanad serve exited with ${String(code)} before serving:\n${err}`));
    });
  });
  // A service that dies on its own mid-test shows up as "connection refused" in the test; say why here.
  let stopping = false;
  void exited.then((code) => {
    if (!stopping)
      console.error(
        `sanad serve at ${info.url} exited by itself (code ${String(code)}, signal ${String(child.signalCode)}); its stderr ends:\n${err.slice(-4000)}`,
      );
  });
  return {
    ...info,
    api: new Api(info.url, token),
    child,
    stderr: () => err,
    kill: async () => {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
