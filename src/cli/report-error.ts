// How a failed command reaches the person: one sentence on stderr (exit 1; 2 for a usage mistake),
// never a stack trace. Loaded only when a command fails: the error classes it knows come from
// across the core, and a command that succeeds should not pay for loading them.
import { DataDirError } from '../appliance/data-dir.js';
import { AlreadyRunningError } from '../appliance/instance-lock.js';
import { LanUnavailableError } from '../appliance/lan/errors.js';
import { NotLoopbackError, PortInUseError } from '../appliance/port.js';
import { withRestoreAdvice } from '../restore/damaged-store.js';
import { KeychainUnavailableError, MissingSecretError, NoSecretsYetError, SecretsFileUnsafeError } from '../secrets/errors.js';
import { StoreTooNewError } from '../store/migrate.js';
import { StoreDamagedError } from '../store/store-check.js';
import { CliError } from './cli-error.js';
import type { Io } from './io.js';

/** The exit code, after saying what went wrong; `dataDir` names the folder for a damaged store's advice. */
export function reportError(error: unknown, io: Io, dataDir: () => string): number {
  const err = error instanceof StoreDamagedError ? withRestoreAdvice(error, dataDir()) : error;
  if (
    err instanceof CliError ||
    err instanceof AlreadyRunningError ||
    err instanceof StoreTooNewError ||
    err instanceof KeychainUnavailableError ||
    err instanceof MissingSecretError ||
    err instanceof SecretsFileUnsafeError ||
    err instanceof StoreDamagedError ||
    err instanceof NoSecretsYetError ||
    err instanceof PortInUseError ||
    err instanceof DataDirError ||
    err instanceof NotLoopbackError ||
    err instanceof LanUnavailableError
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
