// The `sanad` command. Global options: --data-dir DIR, --json. Errors are one sentence on stderr
// (exit 1; 2 for a usage mistake), never a stack trace.
import { resolveDataDir } from '../appliance/data-dir.js';
import { CliError } from './cli-error.js';
import { createIo, type Io } from './io.js';
import { commandUsage, COMMANDS, isCommand, nearest, USAGE, type Command } from './usage.js';
import { APP_VERSION } from '../version.js';
import { systemClock, type Clock } from '../clock.js';

/** A command; only `serve` takes the clock (the soak's test build moves it). */
type Run = (args: string[], dataDir: string, io: Io, secretsFile: string | undefined, clock: Clock) => Promise<number>;

/** Each command's module, loaded only when that command runs: `sanad help` and `--version` load
 *  none of them, and no command pays for another's (serve alone pulls in llama.cpp). */
const RUN: Record<Exclude<Command, 'help' | 'version'>, () => Promise<Run>> = {
  serve: async () => (await import('./commands/serve.js')).serveCommand,
  'login-link': async () => (await import('./commands/login-link.js')).loginLinkCommand,
  'client-config': async () => (await import('./commands/client-config.js')).clientConfigCommand,
  token: async () => (await import('./commands/token.js')).tokenCommand,
  models: async () => (await import('./commands/models.js')).modelsCommand,
  backup: async () => (await import('./commands/backup.js')).backupCommand,
  drill: async () => (await import('./commands/drill.js')).drillCommand,
  repo: async () => (await import('./commands/repo.js')).repoCommand,
  'recovery-kit': async () => (await import('./commands/recovery-kit.js')).recoveryKitCommand,
  passphrase: async () => (await import('./commands/passphrase.js')).passphraseCommand,
  restore: async () => (await import('./commands/restore.js')).restoreCommand,
  generations: async () => (await import('./commands/generations.js')).generationsCommand,
  doctor: async () => (await import('./commands/doctor.js')).doctorCommand,
  secrets: async () => (await import('./commands/secrets.js')).secretsCommand,
};

/** Pulls the global options out of argv wherever they stand. */
function splitGlobals(argv: string[]): {
  rest: string[];
  dataDir: string | undefined;
  secretsFile: string | undefined;
  json: boolean;
  help: boolean;
  version: boolean;
} {
  const rest: string[] = [];
  let dataDir: string | undefined;
  let secretsFile: string | undefined = process.env.SANAD_SECRETS_FILE || undefined;
  let json = false;
  let help = false;
  let version = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === '--json') json = true;
    else if (a === '-h' || a === '--help') help = true;
    else if (a === '--version' || a === '-V') version = true;
    else if (a === '--data-dir') {
      dataDir = argv[++i];
      if (dataDir === undefined || dataDir.startsWith('--')) throw new CliError('--data-dir needs a folder. Run `sanad help` for usage.', 2);
    } else if (a.startsWith('--data-dir=')) dataDir = a.slice('--data-dir='.length);
    else if (a === '--log-format' || a.startsWith('--log-format=')) {
      const value = a.includes('=') ? a.slice('--log-format='.length) : argv[++i];
      if (value !== 'json' && value !== 'text') throw new CliError('--log-format takes json or text. Run `sanad help` for usage.', 2);
      // Read by every logger this process makes (logger.ts logFormatFromEnv).
      process.env.SANAD_LOG_FORMAT = value;
    } else if (a === '--secrets-file') {
      secretsFile = argv[++i];
      if (secretsFile === undefined || secretsFile.startsWith('--')) throw new CliError('--secrets-file needs a file. Run `sanad help` for usage.', 2);
    } else rest.push(a);
  }
  return { rest, dataDir, secretsFile, json, help, version };
}

export async function main(argv: string[], clock: Clock = systemClock): Promise<number> {
  let json = argv.includes('--json');
  const io0 = createIo(json);
  try {
    const { rest, dataDir: flag, secretsFile, json: j, help, version } = splitGlobals(argv);
    json = j;
    const io = createIo(json);
    const [command, ...args] = rest;
    if (version || command === 'version') {
      io.result({ sanad: APP_VERSION, node: process.versions.node }, () => `sanad ${APP_VERSION} (Node ${process.versions.node})`);
      return 0;
    }
    if (command === 'help' && args[0] !== undefined) return helpFor(args[0], io);
    if (!command || command === 'help') {
      io.out(USAGE);
      return command || help ? 0 : 2;
    }
    if (!isCommand(command)) {
      const near = nearest(command, COMMANDS);
      throw new CliError(`Unknown command "${command}"${near ? `; did you mean "${near}"?` : '.'} Run \`sanad help\` for usage.`, 2);
    }
    if (help || command === 'help' || command === 'version') return helpFor(command, io);
    const dataDir = resolveDataDir(flag);
    const run = await RUN[command]();
    return await run(args, dataDir, io, secretsFile, clock);
  } catch (err) {
    return (await import('./report-error.js')).reportError(err, io0, () => resolveDataDirQuietly(argv));
  }
}

function helpFor(word: string, io: Io): number {
  if (!isCommand(word)) {
    const near = nearest(word, COMMANDS);
    throw new CliError(`There is no command "${word}"${near ? `; did you mean "${near}"?` : '.'} Run \`sanad help\` for the list.`, 2);
  }
  io.out(word === 'help' || word === 'version' ? USAGE : commandUsage(word));
  return 0;
}

/** The data dir named on the command line (or the default), for advice after a failure. */
function resolveDataDirQuietly(argv: string[]): string {
  try {
    return resolveDataDir(splitGlobals(argv).dataDir);
  } catch {
    return resolveDataDir(undefined);
  }
}
