// A real restic REST offsite on loopback: `rclone serve restic` over a local folder. It can be
// stopped and started again on the same port and folder, as an offsite that goes down and comes back.
import { spawn, type ChildProcess } from 'node:child_process';
export { freePort } from '../../harness/ports.js';

export class RestServer {
  private child: ChildProcess | null = null;
  constructor(
    readonly dir: string,
    readonly port: number,
    private readonly extraArgs: string[] = [],
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}/`;
  }

  async start(): Promise<void> {
    const child = spawn('rclone', ['serve', 'restic', ...this.extraArgs, '--addr', `127.0.0.1:${this.port}`, this.dir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      let err = '';
      const timer = setTimeout(() => reject(new Error(`rclone serve restic did not start: ${err}`)), 15_000);
      child.stderr?.on('data', (d: Buffer) => {
        err += d.toString();
        if (/Serving restic REST API|listening/i.test(err)) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`rclone exited ${String(code)}: ${err}`));
      });
    });
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await gone;
  }
}
