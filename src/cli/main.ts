// The `sanad` command. Global options: --data-dir DIR, --json. Errors are one sentence on stderr
// (exit 1; 2 for a usage mistake), never a stack trace.
import { DataDirError, resolveDataDir } from '../appliance/data-dir.js';
import { loginLinkCommand } from './commands/login-link.js';
import { clientConfigCommand } from './commands/client-config.js';
import { AlreadyRunningError } from '../appliance/instance-lock.js';
import { KeychainUnavailableError, MissingSecretError, NoSecretsYetError, SecretsFileUnsafeError } from '../secrets/errors.js';
import { NotLoopbackError, PortInUseError } from '../appliance/port.js';
import { LanUnavailableError } from '../appliance/lan/errors.js';
import { StoreTooNewError } from '../store/migrate.js';
import { StoreDamagedError } from '../store/store-check.js';
import { withRestoreAdvice } from '../restore/damaged-store.js';
import { CliError } from './cli-error.js';
import { backupCommand } from './commands/backup.js';
import { doctorCommand } from './commands/doctor.js';
import { secretsCommand } from './commands/secrets.js';
import { drillCommand } from './commands/drill.js';
import { modelsCommand } from './commands/models.js';
import { passphraseCommand } from './commands/passphrase.js';
import { recoveryKitCommand } from './commands/recovery-kit.js';
import { repoCommand } from './commands/repo.js';
import { restoreCommand } from './commands/restore.js';
import { generationsCommand } from './commands/generations.js';
import { tokenCommand } from './commands/token.js';
import { createIo } from './io.js';

const USAGE = `Usage: sanad <command> [options]

Commands:
  serve [--port N] [--lan [--lan-port N]] [--secrets-file-if-no-keychain]
                                            run the appliance headless (LMSP service, GUI) on this machine; --lan also
                                            serves paired devices on the network (TLS, model routes only); the last
                                            flag (what \`npm start\` uses) keeps the secrets in a file when there is no keychain
  client-config [--out FILE] [--pair]       the network address and certificate (and a pairing code) for a device
  login-link                                a new one-time GUI login link from the running Sanad (works once, 10 min)
  token create --name NAME --scopes s1,s2   make a client and print its token once
  models add PATH [--id ID]                 register a GGUF model file (never copied)
  models list                               list registered models and their status
  models pull URI [--id ID] [--sha256 HEX]  download a model (hf:OWNER/REPO/FILE.gguf, hf:OWNER/REPO:QUANT,
                                            hf:OWNER/REPO, https://…/FILE.gguf), resumable and verified
  models set ID [--context N] [--gpu-layers auto|N] [--temperature T] [--max-output-tokens N] [--backup include|source]
  models login | logout                     save (from a prompt or stdin) or remove the Hugging Face token
  backup now                                one generation to every enabled repository (exit 3: local ok, an offsite failed)
  backup copy-offsite                       the newest backup to the offsite targets that lack it (exit 3: one failed)
  drill [--deep] [--repo NAME]              verify the backups, never writing to them (exit 0 PASS, 1 FAIL, 2 UNVERIFIED)
  repo add NAME --type s3 --url https://HOST[:PORT]/BUCKET[/PREFIX] --access-key-id ID [--region R] [--cacert FILE]
                                            (the secret key from stdin or a prompt)
  repo add NAME --type rest --url http[s]://HOST:PORT/[PATH] [--user U] [--password-stdin]
  repo add NAME --type rclone --remote REMOTE:PATH [--rclone-config FILE]
  repo add NAME --type folder --path DIR    an external disk, or another folder on this computer
  repo list | repo remove NAME              backup targets (remove never deletes the data at the remote)
  recovery-kit [--out FILE] [--confirm]     write what a new machine needs to restore; record it is stored off this machine
  passphrase rotate                         a new backup passphrase for every repository (exit 1: not rotated, nothing revoked)
  restore --list [--repo NAME]              restorable generations, newest data first
  restore --target DIR [--generation E] [--repo NAME] [--models-in-place] [--keep-clients] [--passphrase-stdin]
                                            restore into an empty or absent DIR and verify it (exit 1: failed or refused)
  restore --generation E --response ID [--response ID …] [--undelete] [--repo NAME]
                                            bring those responses (task and events) back into the live data, never overwriting
  generations show E [--repo NAME] [--search TEXT] [--after ID] [--limit N]
                                            what generation E holds and its responses, without restoring
  generations diff E [E2] [--repo NAME]     what changed from E to E2 (default: the live data)
  doctor                                    check this machine and data dir, one line each with the fix (exit 1: something failed)
  secrets move-to-keychain                  move the secrets from the secrets file into the OS keychain, verified

Options for every command:
  --data-dir DIR   data folder (default: $SANAD_DATA_DIR, else the OS app-data folder)
  --json           machine-readable output on stdout
  --log-format F   json or text log lines on stderr (default: text on a terminal, else json)
  --secrets-file F opt-in 0600 secrets file for headless servers without a keychain
                   (default: $SANAD_SECRETS_FILE, else the OS keychain)
Scopes: models:read, responses:write, tasks:read, tasks:write, admin`;

const COMMANDS = ['serve', 'login-link', 'client-config', 'token', 'models', 'backup', 'drill', 'repo', 'recovery-kit', 'passphrase', 'restore', 'generations', 'doctor', 'secrets', 'help'];

/** The command a typo most likely meant (at most two edits away), for the error it gets. */
function nearest(word: string, words: readonly string[]): string | null {
  const distance = (a: string, b: string): number => {
    let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const cur = [i];
      for (let j = 1; j <= b.length; j++) cur.push(Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)));
      prev = cur;
    }
    return prev[b.length] ?? Infinity;
  };
  const best = words.map((w) => ({ w, d: distance(word, w) })).sort((x, y) => x.d - y.d)[0];
  return best && best.d <= 2 ? best.w : null;
}

/** Pulls the global options out of argv wherever they stand. */
function splitGlobals(argv: string[]): { rest: string[]; dataDir: string | undefined; secretsFile: string | undefined; json: boolean; help: boolean } {
  const rest: string[] = [];
  let dataDir: string | undefined;
  let secretsFile: string | undefined = process.env.SANAD_SECRETS_FILE || undefined;
  let json = false;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === '--json') json = true;
    else if (a === '-h' || a === '--help') help = true;
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
    }
    else rest.push(a);
  }
  return { rest, dataDir, secretsFile, json, help };
}

export async function main(argv: string[]): Promise<number> {
  let json = argv.includes('--json');
  const io0 = createIo(json);
  try {
    const { rest, dataDir: flag, secretsFile, json: j, help } = splitGlobals(argv);
    json = j;
    const io = createIo(json);
    const [command, ...args] = rest;
    if (help || !command || command === 'help') {
      io.out(USAGE);
      return command || help ? 0 : 2;
    }
    const dataDir = resolveDataDir(flag);
    switch (command) {
      case 'serve':
        // Loaded only here: serve pulls in llama.cpp, which costs every other command a second.
        return await (await import('./commands/serve.js')).serveCommand(args, dataDir, io, secretsFile);
      case 'login-link':
        return await loginLinkCommand(args, dataDir, io);
      case 'client-config':
        return await clientConfigCommand(args, dataDir, io);
      case 'token':
        return await tokenCommand(args, dataDir, io);
      case 'models':
        return await modelsCommand(args, dataDir, io, secretsFile);
      case 'backup':
        return await backupCommand(args, dataDir, io, secretsFile);
      case 'drill':
        return await drillCommand(args, dataDir, io, secretsFile);
      case 'repo':
        return await repoCommand(args, dataDir, io, secretsFile);
      case 'recovery-kit':
        return await recoveryKitCommand(args, dataDir, io, secretsFile);
      case 'passphrase':
        return await passphraseCommand(args, dataDir, io, secretsFile);
      case 'restore':
        return await restoreCommand(args, dataDir, io, secretsFile);
      case 'generations':
        return await generationsCommand(args, dataDir, io, secretsFile);
      case 'doctor':
        return await doctorCommand(args, dataDir, io, secretsFile);
      case 'secrets':
        return await secretsCommand(args, dataDir, io, secretsFile);
      default: {
        const near = nearest(command, COMMANDS);
        throw new CliError(`Unknown command "${command}"${near ? `; did you mean "${near}"?` : '.'} Run \`sanad help\` for usage.`, 2);
      }
    }
  } catch (err) {
    if (err instanceof StoreDamagedError) return report(withRestoreAdvice(err, resolveDataDirQuietly(argv)), io0);
    return report(err, io0);
  }
}

/** The data dir named on the command line (or the default), for advice after a failure. */
function resolveDataDirQuietly(argv: string[]): string {
  try {
    return resolveDataDir(splitGlobals(argv).dataDir);
  } catch {
    return resolveDataDir(undefined);
  }
}

function report(err: unknown, io: ReturnType<typeof createIo>): number {
  if (
    err instanceof CliError || err instanceof AlreadyRunningError || err instanceof StoreTooNewError ||
    err instanceof KeychainUnavailableError || err instanceof MissingSecretError || err instanceof SecretsFileUnsafeError ||
    err instanceof StoreDamagedError || err instanceof NoSecretsYetError || err instanceof PortInUseError || err instanceof DataDirError ||
    err instanceof NotLoopbackError || err instanceof LanUnavailableError
  ) {
    io.note(`sanad: ${err.message}`);
    return err instanceof CliError ? err.exitCode : 1;
  }
  // parseArgs throws TypeErrors with a readable message and an ERR_PARSE_ARGS_* code.
  if (err instanceof Error && 'code' in err && typeof err.code === 'string' && err.code.startsWith('ERR_PARSE_ARGS')) {
    io.note(`sanad: ${err.message}. Run \`sanad help\` for usage.`);
    return 2;
  }
  const message = err instanceof Error ? err.message : String(err);
  io.note(`sanad: ${message.split('\n')[0]} (if this persists, run with SANAD_LOG=debug and report it).`);
  return 1;
}
