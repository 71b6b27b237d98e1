// `sanad token create --name NAME --scopes s1,s2`: makes a client and prints its token once.
import { parseArgs } from 'node:util';
import { systemClock, unixSeconds } from '../../clock.js';
import { createClient, isScope, SCOPES, type Scope } from '../../store/clients.js';
import { usageError } from '../cli-error.js';
import type { Io } from '../io.js';
import { withStore } from '../store-access.js';

export async function tokenCommand(args: string[], dataDir: string, io: Io): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'create') throw usageError(sub ? `Unknown token command "${sub}".` : 'Say what to do: `sanad token create`.');
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
  const made = await withStore(dataDir, (db) => createClient(db, name, scopes, unixSeconds(systemClock)));
  io.result({ client_id: made.client.id, token: made.token, scopes: made.client.scopes }, () =>
    [`Client ${made.client.name} (${made.client.id}), scopes: ${made.client.scopes.join(', ')}`, `Token: ${made.token}`].join('\n'),
  );
  if (!io.json) io.note('Store this token now: Sanad keeps only its hash and cannot show it again.');
  return 0;
}
