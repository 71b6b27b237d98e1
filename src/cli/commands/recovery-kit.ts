// `sanad recovery-kit [--out FILE] [--confirm]`: the kit a new machine needs to read the backups,
// and the record that the user stored it off this machine. A running service answers both.
import { writeFileSync } from 'node:fs';
import type { z } from 'zod/v3';
import { parseArgs } from 'node:util';
import { recoveryLocations } from '../../repository/repositories.js';
import { systemClock } from '../../clock.js';
import { readResticPassphrase } from '../../secrets/master-secrets.js';
import { secretStoreFor } from '../secrets-access.js';
import { buildRecoveryKit, confirmRecoveryKit } from '../../secrets/recovery-kit.js';
import { KitConfirmed, RecoveryKit } from '../../contract/secrets.js';
import { CliError } from '../cli-error.js';
import { errorMessage, serviceHoldsDataDir, withRunningService } from '../running-service.js';
import type { Io } from '../io.js';
import { withStore } from '../store-access.js';

export async function recoveryKitCommand(args: string[], dataDir: string, io: Io, secretsFile: string | undefined): Promise<number> {
  const { values } = parseArgs({ args, options: { out: { type: 'string' }, confirm: { type: 'boolean' } }, strict: true });
  // With a service running on the data dir, it answers (the one process holding the secrets).
  if (serviceHoldsDataDir(dataDir)) return throughService(values, dataDir, io);
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
  return show(kit, values.out, io);
}

async function throughService(values: { out?: string; confirm?: boolean }, dataDir: string, io: Io): Promise<number> {
  return withRunningService(dataDir, 'sanad recovery-kit', async (call) => {
    if (values.confirm) {
      const answer = await call('POST', '/admin/recovery-kit/confirm');
      const parsed = KitConfirmed.safeParse(answer.body);
      if (!parsed.success) throw new CliError(errorMessage(answer.body, `The service did not record the kit (HTTP ${answer.status}).`));
      io.result(parsed.data, () => 'Recorded: the recovery kit is stored off this machine.');
      return 0;
    }
    const answer = await call('GET', '/admin/recovery-kit');
    const parsed = RecoveryKit.safeParse(answer.body);
    if (!parsed.success) throw new CliError(errorMessage(answer.body, `The service did not give the recovery kit (HTTP ${answer.status}).`));
    return show(parsed.data, values.out, io);
  });
}

/** The kit, to a new file (0600, never over one) or to stdout. */
function show(kit: Omit<z.infer<typeof RecoveryKit>, 'confirmed_at'>, out: string | undefined, io: Io): number {
  if (out) {
    try {
      // wx: never overwrite a file; 0600: the kit holds the passphrase.
      writeFileSync(out, kit.text, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      const why = err instanceof Error && 'code' in err && err.code === 'EEXIST' ? 'it already exists' : 'it cannot be written';
      throw new CliError(`The recovery kit was not written to ${out}: ${why}; choose another file.`);
    }
    io.result({ out, created_at: kit.created_at, repositories: kit.repositories }, () => `Wrote the recovery kit to ${out}.`);
  } else {
    io.result(kit, () => kit.text);
  }
  if (!io.json) io.note('Store it off this machine, then run `sanad recovery-kit --confirm`.');
  return 0;
}
