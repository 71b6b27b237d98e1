// `restic init`: creates the repository. 0.14 prints text even with --json, so success is the exit code.
import { runRestic, type ResticRuntime } from './run.js';
import type { ResticRepo } from './repo.js';

export async function init(rt: ResticRuntime, repo: ResticRepo, options: { signal?: AbortSignal } = {}): Promise<void> {
  await runRestic(rt, repo, { args: ['init'], json: false, signal: options.signal });
}
