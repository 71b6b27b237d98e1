// `sanad models add PATH [--id ID]` and `sanad models list`.
import { parseArgs } from 'node:util';
import { systemClock } from '../../clock.js';
import { ModelRegistry, ModelRegistryError, type ModelObject } from '../../engine/registry.js';
import { CliError, usageError } from '../cli-error.js';
import type { Io } from '../io.js';
import { withStore } from '../store-access.js';

function describe(m: ModelObject): string {
  const mb = (m.size_bytes / 1024 / 1024).toFixed(1);
  return `${m.id}\t${m.status}\t${mb} MiB\tsha256:${m.sha256.slice(0, 12)}…\t${m.path}`;
}

export async function modelsCommand(args: string[], dataDir: string, io: Io): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'add') {
    const { values, positionals } = parseArgs({ args: rest, options: { id: { type: 'string' } }, allowPositionals: true, strict: true });
    const path = positionals[0];
    if (!path || positionals.length > 1) throw usageError('Give exactly one model file: `sanad models add PATH [--id ID]`.');
    const model = await withStore(dataDir, async (db) => {
      try {
        return await new ModelRegistry(db, systemClock).add(path, values.id);
      } catch (err) {
        if (err instanceof ModelRegistryError) throw new CliError(err.message);
        throw err;
      }
    });
    io.result(model, () => `Registered ${model.id} (${model.size_bytes} bytes, sha256 ${model.sha256}); the file stays where it is.`);
    return 0;
  }
  if (sub === 'list') {
    parseArgs({ args: rest, options: {}, strict: true });
    const models = await withStore(dataDir, (db) => new ModelRegistry(db, systemClock).list());
    io.result({ object: 'list', data: models }, () =>
      models.length === 0 ? 'No models registered yet: run `sanad models add PATH`.' : models.map(describe).join('\n'),
    );
    return 0;
  }
  throw usageError(sub ? `Unknown models command "${sub}".` : 'Say what to do: `sanad models add PATH` or `sanad models list`.');
}
