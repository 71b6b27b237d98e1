// `sanad restore --list` and `sanad restore --target DIR`: generations newest data first, and a
// verified restore into an empty or absent folder. Reads the live data dir (read-only) only for
// the repository and its passphrase; the passphrase of a new machine comes from stdin or a
// no-echo prompt, never argv. Exit 0 ok; 1 failed or refused (DIR as it was); 2 usage.
import { parseArgs } from 'node:util';
import { usageError } from '../cli-error.js';
import type { Io } from '../io.js';
import type { RestoreOptions } from './restore-run.js';

const OPTIONS = {
  list: { type: 'boolean' },
  target: { type: 'string' },
  generation: { type: 'string' },
  repo: { type: 'string' },
  'passphrase-stdin': { type: 'boolean' },
  'models-in-place': { type: 'boolean' },
  'keep-clients': { type: 'boolean' },
  response: { type: 'string', multiple: true },
  undelete: { type: 'boolean' },
} as const;

function parse(args: string[]): RestoreOptions {
  const { values } = parseArgs({ args, options: OPTIONS, strict: true });
  const responses = values.response ?? [];
  if (responses.length > 0) {
    if (values.list || values.target !== undefined || values['models-in-place'] || values['keep-clients'])
      throw usageError('--response brings responses back into the live data; it does not go with --list, --target, --models-in-place or --keep-clients.');
    if (values.generation === undefined) throw usageError('Say which generation to bring them back from: --generation E (see `sanad restore --list`).');
    if (responses.some((r) => !/^[A-Za-z0-9_-]{1,200}$/.test(r)))
      throw usageError('--response takes a response id (resp_…), as `sanad generations show E` lists them.');
  } else if (values.undelete) throw usageError('--undelete goes with --response.');
  if (responses.length > 0)
    return {
      list: false,
      repo: values.repo ?? 'local',
      stdin: false,
      inPlace: false,
      keepClients: false,
      responses,
      undelete: values.undelete ?? false,
      generation: parseGeneration(values.generation),
    };
  if (values.list && values.target !== undefined) throw usageError('Give either --list or --target DIR, not both.');
  if (!values.list && values.target === undefined) throw usageError('Say what to do: `sanad restore --list` or `sanad restore --target DIR`.');
  if (values.target === '') throw usageError('--target needs a folder.');
  if (values.generation !== undefined) parseGeneration(values.generation);
  if (values.list && (values.generation !== undefined || values['models-in-place'] || values['keep-clients']))
    throw usageError('--generation, --models-in-place and --keep-clients go with --target.');
  return {
    list: values.list ?? false,
    ...(values.target !== undefined ? { target: values.target } : {}),
    ...(values.generation !== undefined ? { generation: Number(values.generation) } : {}),
    repo: values.repo ?? 'local',
    stdin: values['passphrase-stdin'] ?? false,
    inPlace: values['models-in-place'] ?? false,
    keepClients: values['keep-clients'] ?? false,
    responses: [],
    undelete: false,
  };
}

function parseGeneration(raw: string | undefined): number {
  if (raw === undefined || !/^[1-9][0-9]*$/.test(raw))
    throw usageError(`--generation takes a generation number (see \`sanad restore --list\`), not "${raw ?? ''}".`);
  return Number(raw);
}

export async function restoreCommand(args: string[], dataDir: string, io: Io, secretsFile: string | undefined): Promise<number> {
  const opts = parse(args);
  // A word at once: the restore's store, restic and checks take a few hundred ms to load, and a
  // person who typed the command should see it started before then.
  if (opts.target !== undefined && !io.json) io.note('… preparing');
  return (await import('./restore-run.js')).runRestore(opts, dataDir, io, secretsFile);
}
