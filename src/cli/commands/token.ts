// `sanad token create --name NAME --scopes s1,s2`: makes a client and prints its token once. With a
// service running on the data dir it asks the service (the one writer, which tells its GUI); with
// none, it writes the store here (making it on a new data dir).
import { parseArgs } from 'node:util';
import { systemClock, unixSeconds } from '../../clock.js';
import { createClient, isScope, SCOPES, type Scope } from '../../store/clients.js';
import type { z } from 'zod/v3';
import type { NewClientRequest } from '../../contract/admin-requests.js';
import { NewClient } from '../../contract/clients.js';
import { CliError, unknownSubcommand, usageError } from '../cli-error.js';
import { errorMessage, serviceHoldsDataDir, withRunningService } from '../running-service.js';
import type { Io } from '../io.js';
import { withStore } from '../store-access.js';

export async function tokenCommand(args: string[], dataDir: string, io: Io): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'create') throw sub ? unknownSubcommand('token', sub, ['create']) : usageError('Say what to do: `sanad token create`.');
  const { values } = parseArgs({ args: rest, options: { name: { type: 'string' }, scopes: { type: 'string' } }, strict: true });
  const name = values.name?.trim();
  if (!name) throw usageError('Give the client a name with --name NAME.');
  if (!values.scopes) throw usageError(`Give the token its scopes with --scopes (any of ${SCOPES.join(', ')}).`);
  const requested = values.scopes
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = requested.filter((s) => !isScope(s));
  if (unknown.length > 0 || requested.length === 0) throw usageError(`Unknown scope "${unknown[0] ?? ''}": use any of ${SCOPES.join(', ')}.`);
  const scopes = requested.filter((s): s is Scope => isScope(s));
  // A new data dir has no store yet: made here, as `sanad serve` would make it.
  const made: NewClient = serviceHoldsDataDir(dataDir)
    ? await withRunningService(dataDir, 'sanad token create', async (call) => {
        const answer = await call('POST', '/admin/clients', { name, scopes } satisfies z.input<typeof NewClientRequest>);
        const parsed = NewClient.safeParse(answer.body);
        if (answer.status !== 201 || !parsed.success)
          throw new CliError(errorMessage(answer.body, `The service did not make the client (HTTP ${answer.status}).`));
        return parsed.data;
      })
    : await withStore(dataDir, (db) => {
        const { client, token } = createClient(db, name, scopes, unixSeconds(systemClock));
        return { client_id: client.id, token, scopes: client.scopes };
      });
  io.result(made, () => [`Client ${name} (${made.client_id}), scopes: ${made.scopes.join(', ')}`, `Token: ${made.token}`].join('\n'));
  if (!io.json) io.note('Store this token now: Sanad keeps only its hash and cannot show it again.');
  return 0;
}
