// `sanad secrets move-to-keychain`: the secrets of this data dir from its secrets file into the OS
// keychain, verified, then removed from the file. Refused while a Sanad serves this data dir (it
// holds the secrets and the file in use); the instance lock is held meanwhile so none can start.
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { KeychainStore } from '../../secrets/keychain.js';
import { moveSecretsToKeychain } from '../../secrets/move-to-keychain.js';
import { dataDirScope } from '../../secrets/scope.js';
import { SecretsFileStore } from '../../secrets/secrets-file.js';
import { readSecretsLocation } from '../../secrets/secrets-location.js';
import { tryFileLock } from '../../store/file-lock.js';
import { CliError, usageError } from '../cli-error.js';
import type { Io } from '../io.js';
import { instanceLockPath } from '../../files/data-dir-layout.js';

export async function secretsCommand(args: string[], dataDir: string, io: Io, secretsFile: string | undefined): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'move-to-keychain') throw usageError(sub ? `Unknown secrets command "${sub}".` : 'Say what to do: `sanad secrets move-to-keychain`.');
  parseArgs({ args: rest, options: {}, strict: true });
  const recorded = readSecretsLocation(dataDir);
  const path = secretsFile ?? (recorded?.kind === 'file' ? recorded.path : (recorded?.moved_from ?? null));
  const alreadySwitched = recorded?.kind === 'keychain';
  if (path === null || (alreadySwitched && !existsSync(path))) {
    io.result({ moved: [], file_removed: false, already: true }, () => `The secrets of ${dataDir} are already in the OS keychain; nothing to move.`);
    return 0;
  }
  const lock = tryFileLock(instanceLockPath(dataDir));
  if (!lock) throw new CliError(`A Sanad is running on ${dataDir}; stop it (Ctrl-C on \`sanad serve\`, or quit the desktop app), then run this again.`);
  try {
    const scope = dataDirScope(dataDir);
    const file = new SecretsFileStore(path, scope);
    await file.probe();
    const keychain = new KeychainStore(scope);
    await keychain.probe();
    const report = await moveSecretsToKeychain(dataDir, file, keychain, { alreadySwitched });
    io.result(
      { moved: report.moved, file_removed: report.fileRemoved },
      () =>
        `Moved ${report.moved.length} secret(s) of ${dataDir} into the OS keychain and removed them from ${path}` +
        `${report.fileRemoved ? ' (the file is gone)' : " (the file keeps other data dirs' secrets)"}.`,
    );
    return 0;
  } finally {
    lock.release();
  }
}
