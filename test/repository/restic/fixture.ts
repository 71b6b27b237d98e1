// A temp dir per test with a real restic, a runtime whose cache lives inside it, and helpers to
// make repositories and data. Nothing here mocks restic.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findRestic, init, type ResticRepo, type ResticRuntime } from '../../../src/repository/restic/index.js';
import { runRestic } from '../../../src/repository/restic/run.js';

export interface ResticFixture {
  dir: string;
  rt: ResticRuntime;
  repo(name?: string): ResticRepo;
  newRepo(name?: string): Promise<ResticRepo>;
  dataDir(name: string, files?: Record<string, string>): Promise<string>;
  bigFile(name: string, megabytes: number): Promise<string>;
  locks(repo: ResticRepo): Promise<string[]>;
  cleanup(): Promise<void>;
}

export const PASSWORD = 'correct-horse-battery-staple-7';

export async function resticFixture(): Promise<ResticFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'sanad-restic-test-'));
  const rt: ResticRuntime = { binary: await findRestic(), cacheDir: join(dir, 'cache'), killGraceMs: 10_000 };
  const repo = (name = 'local'): ResticRepo => ({ name, url: join(dir, 'repos', name), password: PASSWORD });
  return {
    dir,
    rt,
    repo,
    async newRepo(name = 'local') {
      const r = repo(name);
      await init(rt, r);
      return r;
    },
    async dataDir(name, files = { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' }) {
      const d = join(dir, 'data', name);
      await mkdir(d, { recursive: true });
      for (const [f, content] of Object.entries(files)) await writeFile(join(d, f), content);
      return d;
    },
    async bigFile(name, megabytes) {
      const d = join(dir, 'data', name);
      await mkdir(d, { recursive: true });
      const path = join(d, 'big.bin');
      const out = createWriteStream(path);
      // Random data: restic cannot deduplicate or compress it, so the backup really takes a while.
      for (let i = 0; i < megabytes; i++) {
        if (!out.write(randomBytes(1 << 20))) await new Promise<void>((r) => out.once('drain', () => r()));
      }
      await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
      return d;
    },
    async locks(r) {
      const result = await runRestic(rt, r, { args: ['list', 'locks', '--no-lock'], json: false });
      return result.stdoutTail.filter((l) => /^[0-9a-f]{64}$/.test(l));
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}
