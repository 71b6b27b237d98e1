// `sanad models add PATH [--id ID]`, `list`, `pull URI` (model-pull.ts), `set ID …` (run settings
// and the backup choice), `login` / `logout` (the hub token, kept in the keychain).
import { parseArgs } from 'node:util';
import { systemClock } from '../../clock.js';
import { ModelRegistry, ModelRegistryError, type ModelObject } from '../../engine/registry.js';
import { parseGpuLayers, type SettingsChange } from '../../engine/model-settings.js';
import { HUB_TOKEN } from '../../secrets/secret-store.js';
import type { ModelBackup } from '../../store/models.js';
import { CliError, usageError } from '../cli-error.js';
import type { Io } from '../io.js';
import { readSecretFromStdin } from '../read-secret.js';
import { errorMessage, serviceHoldsDataDir, withRunningService } from '../running-service.js';
import { secretStoreFor } from '../secrets-access.js';
import { withStore } from '../store-access.js';
import { pullCommand } from './model-pull.js';

function describe(m: ModelObject): string {
  const mb = (m.size_bytes / 1024 / 1024).toFixed(1);
  const from = m.source
    ? `\tfrom ${m.source.uri}${m.source.revision ? `@${m.source.revision.slice(0, 12)}` : ''}${m.backup === 'source' ? ' (backups keep only this source)' : ''}`
    : '';
  const s = m.settings;
  const set = [
    s.context_size !== null ? `context ${s.context_size}` : '',
    s.gpu_layers !== null ? `gpu-layers ${s.gpu_layers}` : '',
    s.temperature !== null ? `temperature ${s.temperature}` : '',
    s.max_output_tokens !== null ? `max-output ${s.max_output_tokens}` : '',
  ].filter(Boolean);
  return `${m.id}\t${m.status}\t${mb} MiB\tsha256:${m.sha256.slice(0, 12)}…\t${m.path}${from}${set.length ? `\t${set.join(', ')}` : ''}`;
}

function registryError(err: unknown): never {
  if (err instanceof ModelRegistryError) throw new CliError(err.message);
  throw err;
}

/** "4096" → 4096, "default" → null (cleared), anything else refused naming the option. */
function numberOption(name: string, text: string | undefined, integer: boolean): number | null | undefined {
  if (text === undefined) return undefined;
  if (text === 'default') return null;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || (integer && !Number.isInteger(n)))
    throw usageError(`--${name} takes ${integer ? 'a whole number' : 'a number'} or "default"; "${text}" is neither.`);
  return n;
}

async function setCommand(rest: string[], dataDir: string, io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      context: { type: 'string' },
      'gpu-layers': { type: 'string' },
      temperature: { type: 'string' },
      'max-output-tokens': { type: 'string' },
      backup: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  const id = positionals[0];
  if (!id || positionals.length > 1)
    throw usageError(
      'Name one model: `sanad models set ID [--context N] [--gpu-layers auto|N] [--temperature T] [--max-output-tokens N] [--backup include|source]`.',
    );
  const change: SettingsChange = {};
  const context = numberOption('context', values.context, true);
  if (context !== undefined) change.context_size = context;
  const temperature = numberOption('temperature', values.temperature, false);
  if (temperature !== undefined) change.temperature = temperature;
  const maxOut = numberOption('max-output-tokens', values['max-output-tokens'], true);
  if (maxOut !== undefined) change.max_output_tokens = maxOut;
  if (values['gpu-layers'] !== undefined) {
    const gpu = parseGpuLayers(values['gpu-layers']);
    if (gpu === undefined) throw usageError(`--gpu-layers takes auto, a whole number or "default"; "${values['gpu-layers']}" is none of them.`);
    change.gpu_layers = gpu;
  }
  const backup = values.backup;
  if (backup !== undefined && backup !== 'include' && backup !== 'source')
    throw usageError(`--backup takes include (the file goes into backups) or source (only where it came from); "${backup}" is neither.`);
  if (Object.keys(change).length === 0 && backup === undefined)
    throw usageError('Say what to set: --context, --gpu-layers, --temperature, --max-output-tokens or --backup.');
  const apply = async (registry: ModelRegistry): Promise<ModelObject> => {
    try {
      let m = await registry.setSettings(id, change);
      if (backup !== undefined) m = await registry.setBackup(id, backup satisfies ModelBackup);
      return m;
    } catch (err) {
      return registryError(err);
    }
  };
  // The service reads settings at each load, from the store: a write here reaches it too.
  const model = await withStore(dataDir, (db) => apply(new ModelRegistry(db, systemClock)));
  io.result(model, () => `${describe(model)}\nSet; the next answer of ${model.id} uses it (a loaded model is loaded again with a new context or GPU setting).`);
  return 0;
}

async function loginCommand(rest: string[], dataDir: string, io: Io, secretsFile: string | undefined, logout: boolean): Promise<number> {
  parseArgs({ args: rest, options: { 'token-stdin': { type: 'boolean' } }, strict: true });
  if (logout) {
    if (serviceHoldsDataDir(dataDir)) await withRunningService(dataDir, 'sanad models logout', (call) => call('DELETE', '/admin/hub-token'));
    else await (await secretStoreFor(dataDir, secretsFile)).delete(HUB_TOKEN);
    io.result({ saved: false }, () => 'The Hugging Face token was removed.');
    return 0;
  }
  const token = (await readSecretFromStdin('Hugging Face token (hf_…, read access is enough): ')).trim();
  if (token.length < 8)
    throw new CliError('That is not a Hugging Face token; make one with read access at https://huggingface.co/settings/tokens and paste it.');
  if (serviceHoldsDataDir(dataDir)) {
    const answer = await withRunningService(dataDir, 'sanad models login', (call) => call('PUT', '/admin/hub-token', { token }));
    if (answer.status !== 200) throw new CliError(errorMessage(answer.body, `The service could not save the token (HTTP ${answer.status}).`));
  } else {
    const store = await secretStoreFor(dataDir, secretsFile);
    await store.set(HUB_TOKEN, token);
  }
  io.result({ saved: true }, () => 'Saved the Hugging Face token in the keychain; pulls of gated models use it (it is sent only to the hub).');
  return 0;
}

export async function modelsCommand(args: string[], dataDir: string, io: Io, secretsFile?: string): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'add') {
    const { values, positionals } = parseArgs({ args: rest, options: { id: { type: 'string' } }, allowPositionals: true, strict: true });
    const path = positionals[0];
    if (!path || positionals.length > 1) throw usageError('Give exactly one model file: `sanad models add PATH [--id ID]`.');
    const model = await withStore(dataDir, async (db) => {
      try {
        return await new ModelRegistry(db, systemClock).add(path, values.id);
      } catch (err) {
        return registryError(err);
      }
    });
    io.result(model, () => `Registered ${model.id} (${model.size_bytes} bytes, sha256 ${model.sha256}); the file stays where it is.`);
    return 0;
  }
  if (sub === 'list') {
    parseArgs({ args: rest, options: {}, strict: true });
    const models = await withStore(dataDir, (db) => new ModelRegistry(db, systemClock).list());
    io.result({ object: 'list', data: models }, () =>
      models.length === 0
        ? 'No models registered yet: run `sanad models pull hf:OWNER/REPO:Q4_K_M` or `sanad models add PATH`.'
        : models.map(describe).join('\n'),
    );
    return 0;
  }
  if (sub === 'pull') return pullCommand(rest, dataDir, io, secretsFile);
  if (sub === 'set') return setCommand(rest, dataDir, io);
  if (sub === 'login' || sub === 'logout') return loginCommand(rest, dataDir, io, secretsFile, sub === 'logout');
  throw usageError(
    sub
      ? `Unknown models command "${sub}"; use add, list, pull, set, login or logout.`
      : 'Say what to do: `sanad models pull URI`, `sanad models add PATH`, `sanad models list` or `sanad models set ID …`.',
  );
}
