// Where a keychain call runs once this process's libsecret has lost its daemon (keychain.ts): in a
// fresh process of its own. Under plain Node that is a child of process.execPath (runChild). The
// packaged desktop app cannot do that: its RunAsNode fuse is off, so process.execPath started with
// ELECTRON_RUN_AS_NODE is a second Sanad, which the single-instance lock quits. Its main process
// names Electron's utilityProcess instead (electron/keychain-helper.ts → useKeychainHelper).
import { runChild } from '../process/spawn.js';

/** Runs `script` (keychain-child.js) with `env`; answers its first stdout line, or null if none. */
export type KeychainHelper = (script: string, env: Record<string, string>, secrets: string[]) => Promise<string | null>;

/** A call that hangs (a Secret Service waiting on a prompt nobody sees) ends here. */
export const KEYCHAIN_HELPER_TIMEOUT_MS = 20_000;

const nodeChild: KeychainHelper = async (script, env, secrets) => {
  let line: string | null = null;
  await runChild({
    command: process.execPath,
    args: [script],
    env,
    secrets,
    signal: AbortSignal.timeout(KEYCHAIN_HELPER_TIMEOUT_MS),
    killGraceMs: 1_000,
    onStdoutLine: (l) => {
      line ??= l;
      return true;
    },
  });
  return line;
};

let current: KeychainHelper = nodeChild;

export function useKeychainHelper(helper: KeychainHelper): void {
  current = helper;
}

export function keychainHelper(): KeychainHelper {
  return current;
}
