// `restic cat config`: the cheapest call that proves a repository exists and the password opens it.
import { runRestic, type ResticRuntime } from './run.js';
import { ResticError } from './errors.js';
import type { ResticRepo } from './repo.js';

/** True when the repository exists and opens; false when there is none; throws for anything else
 *  (a wrong password means a repository IS there: initialising over it must not be suggested). */
export async function isInitialized(rt: ResticRuntime, repo: ResticRepo, options: { signal?: AbortSignal } = {}): Promise<boolean> {
  try {
    await runRestic(rt, repo, { args: ['cat', 'config'], json: false, signal: options.signal });
    return true;
  } catch (error) {
    if (error instanceof ResticError && error.kind === 'no_repo') return false;
    throw error;
  }
}
