// `sanad recovery-kit [--out FILE] [--confirm]`: the kit a new machine needs to read the backups,
// and the record that the user stored it off this machine.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { recoveryLocations } from '../../repository/repositories.js';
import { systemClock } from '../../clock.js';
import { readResticPassphrase } from '../../secrets/master-secrets.js';
import { secretStoreFor } from '../secrets-access.js';
import { buildRecoveryKit, confirmRecoveryKit } from '../../secrets/recovery-kit.js';
import { CliError } from '../cli-error.js';
import type { Io } from '../io.js';
import { withStore } from '../store-access.js';

export async function recoveryKitCommand(args: string[], dataDir: string, io: Io, secretsFile: string | undefined): Promise<number> {
  const { values } = parseArgs({ args, options: { out: { type: 'string' }, confirm: { type: 'boolean' } }, strict: true });
  if (values.confirm) {
    const at = await withStore(dataDir, (db) => confirmRecoveryKit(db, systemClock));
    io.result({ confirmed_at: at }, () => 'Recorded: the recovery kit is stored off this machine.');
    return 0;
  }
  const store = await secretStoreFor(dataDir, secretsFile);
  const kit = await withStore(dataDir, async (db) => {
    const passphrase = await readResticPassphrase(db, store);
    return buildRecoveryKit({ dataDir, passphrase, repositories: recoveryLocations(db), clock: systemClock });
  });
  if (values.out) {
    try {
      // wx: never overwrite a file; 0600: the kit holds the passphrase.
      writeFileSync(values.out, kit.text, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      const why = err instanceof Error && 'code' in err && err.code === 'EEXIST' ? 'it already exists' : 'it cannot be written';
      throw new CliError(`The recovery kit was not written to ${values.out}: ${why}; choose another file.`);
    }
    io.result({ out: values.out, created_at: kit.created_at, repositories: kit.repositories }, () => `Wrote the recovery kit to ${values.out}.`);
  } else {
    io.result(kit, () => kit.text);
  }
  if (!io.json) io.note('Store it off this machine, then run `sanad recovery-kit --confirm`.');
  return 0;
}
