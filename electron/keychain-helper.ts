// The keychain's one-off helper (src/secrets/keychain-helper.ts) as an Electron utility process.
// The packaged app's RunAsNode fuse is off, so the core's default — process.execPath with
// ELECTRON_RUN_AS_NODE — would start a second Sanad instead of Node. A utility process is Node
// inside the app itself, allowed under every fuse. The secret travels in its environment, as in
// the plain-Node child: never argv.
import { utilityProcess } from 'electron';
import { createInterface } from 'node:readline';
import { KEYCHAIN_HELPER_TIMEOUT_MS, type KeychainHelper } from '../src/secrets/keychain-helper.js';
import { safeBaseEnv } from '../src/process/spawn.js';

export const inUtilityProcess: KeychainHelper = (script, env) =>
  new Promise((resolve) => {
    const child = utilityProcess.fork(script, [], { env: { ...safeBaseEnv(), ...env }, stdio: ['ignore', 'pipe', 'ignore'], serviceName: 'Sanad keychain' });
    const timer = setTimeout(() => child.kill(), KEYCHAIN_HELPER_TIMEOUT_MS);
    const done = (answer: string | null): void => {
      clearTimeout(timer);
      resolve(answer);
    };
    if (child.stdout === null) {
      child.once('exit', () => done(null));
      return;
    }
    // The answer is the first line; the output's end (after the process exits) means there was none.
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => done(line));
    lines.once('close', () => done(null));
  });
