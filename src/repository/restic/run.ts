// Builds and runs one restic invocation through the audited spawn layer. The password goes in a
// 0600 file named by RESTIC_PASSWORD_FILE (never argv, never the parent's environment); backend
// credentials go in the child's environment; the exit is mapped to a typed ResticError.
// The cache stays on (it makes repeated backups and forgets much cheaper) but lives where the
// caller says (RESTIC_CACHE_DIR), inside Sanad's data dir rather than a shared ~/.cache.
import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runChild, withSecretFile } from '../../process/spawn.js';
import { silentLogger, type Logger } from '../../log/logger.js';
import { parseJsonLine } from './messages.js';
import { ResticError, classifyExit, describe } from './errors.js';
import type { ResticBinary } from './binary.js';
import type { ResticRepo } from './repo.js';

export interface ResticRuntime {
  binary: ResticBinary;
  /** RESTIC_CACHE_DIR; when absent restic uses its default (~/.cache/restic). */
  cacheDir?: string;
  /** Where the 0600 password file's private directory is made; default: beside the cache (inside
   *  the data dir, secretFilesDir), so a SIGKILL or a power cut never leaves a key in /tmp; else os.tmpdir(). */
  secretDir?: string;
  logger?: Logger;
  /** SIGINT → SIGKILL grace on cancel; default 10 s (restic needs a moment to remove its lock). */
  killGraceMs?: number;
  /** Below the engine (nice 10, idle I/O): backups, maintenance and drills, which nobody watches
   *  token by token; with nothing else running they still use every core. A restore someone
   *  waits for runs at normal priority. */
  lowPriority?: boolean;
  /**
   * `--no-lock` on every command, for read-only callers (a drill must never write to a backup, and
   * a lock file is a write). restic 0.14 honours it for snapshots, ls, dump, restore, check, list
   * and cat; backup ignores it (it always locks) and forget refuses it, so it cannot weaken a write.
   */
  noLock?: boolean;
}

export interface ResticRunOptions {
  /** The restic command and its own arguments, e.g. ['snapshots', '--tag', 'sanad']. */
  args: string[];
  json: boolean;
  signal?: AbortSignal;
  /** Gets each JSON stdout line; returns true when it recognised it (so it stays out of the tail). */
  onJson?: (value: unknown) => boolean;
  /** Gets every raw stdout line first (`dump`); returns true when it took the line. */
  onLine?: (line: string) => boolean;
  env?: Record<string, string>;
  secrets?: string[];
  /** Exit codes the caller handles itself (backup: 3 = partial). */
  acceptCodes?: number[];
  /** `--no-lock` for this run; defaults to the runtime's `noLock`. */
  noLock?: boolean;
  /** The source of `restic copy`: its location as RESTIC_FROM_REPOSITORY and its password in a
   *  second 0600 file (RESTIC_FROM_PASSWORD_FILE). A plain path only: no backend credentials. */
  fromRepo?: ResticRepo;
}

export interface ResticRunResult {
  code: number;
  stdoutTail: string[];
  stderrTail: string[];
}

/** `rest:https://user:pass@host/` carries a password; such a URL must not go in argv. */
function urlPassword(url: string): string | null {
  const m = /:\/\/[^/@:]*:([^/@]+)@/.exec(url);
  return m?.[1] ?? null;
}

function scrub(lines: string[], secrets: string[]): string[] {
  return lines.map((l) => secrets.reduce((acc, s) => acc.split(s).join('[redacted]'), l));
}

/** The folder for restic's password files, next to its cache: `<data dir>/backups/secret-files`. */
export function secretFilesDir(cacheDir: string): string {
  return join(dirname(cacheDir), 'secret-files');
}

/** Where this runtime writes a secret for restic (made 0700 when it is the data dir's). */
export function secretDirFor(rt: ResticRuntime): string | undefined {
  const dir = rt.secretDir ?? (rt.cacheDir !== undefined ? secretFilesDir(rt.cacheDir) : undefined);
  if (dir !== undefined) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
  }
  return dir;
}

/** Removes password files a killed Sanad left (call only while holding the data dir's instance lock). */
export function clearSecretFiles(cacheDir: string): void {
  rmSync(secretFilesDir(cacheDir), { recursive: true, force: true });
}

export async function runRestic(rt: ResticRuntime, repo: ResticRepo, options: ResticRunOptions): Promise<ResticRunResult> {
  const command = options.args[0] ?? 'restic';
  if (options.signal?.aborted) throw new ResticError('cancelled', describe('cancelled', command, repo.name, null, ''));
  const inUrl = urlPassword(repo.url);
  const secrets = [repo.password, ...(inUrl ? [inUrl] : []), ...(options.fromRepo ? [options.fromRepo.password] : []), ...(options.secrets ?? [])];
  // Short values (a region, a port) are not secret and would garble every line they match.
  for (const v of Object.values(repo.env ?? {})) if (v.length >= 8) secrets.push(v);

  const globals: string[] = inUrl ? [] : [`--repo=${repo.url}`];
  if (options.json) globals.push('--json');
  if (options.noLock ?? rt.noLock) globals.push('--no-lock');
  if (repo.cacert !== undefined) globals.push(`--cacert=${repo.cacert}`);
  const env: Record<string, string> = {
    ...repo.env,
    // UTC so `--time` and retention's hourly/daily buckets mean the same on every machine.
    TZ: 'UTC',
    ...(inUrl ? { RESTIC_REPOSITORY: repo.url } : {}),
    ...(rt.cacheDir !== undefined ? { RESTIC_CACHE_DIR: rt.cacheDir } : {}),
    ...(repo.rcloneConfig !== undefined ? { RCLONE_CONFIG: repo.rcloneConfig } : {}),
    ...options.env,
  };

  const from = options.fromRepo;
  if (from && (from.env !== undefined || urlPassword(from.url) !== null)) throw new Error('restic copy reads only from a repository on this machine');
  // The source's password file, when there is a source; else nothing is written.
  const withFromFile = <T>(use: (file: string | null) => Promise<T>): Promise<T> =>
    from ? withSecretFile(from.password, use, { dir: secretDirFor(rt) }) : use(null);
  const result = await withFromFile((fromFile) =>
    withSecretFile(
      repo.password,
      (passwordFile) =>
        runChild({
          command: rt.binary.path,
          args: [...globals, ...options.args],
          env: {
            ...env,
            RESTIC_PASSWORD_FILE: passwordFile,
            ...(from && fromFile ? { RESTIC_FROM_REPOSITORY: from.url, RESTIC_FROM_PASSWORD_FILE: fromFile } : {}),
          },
          signal: options.signal,
          secrets,
          killGraceMs: rt.killGraceMs,
          logger: rt.logger ?? silentLogger,
          ...(rt.lowPriority ? { lowPriority: true } : {}),
          onStdoutLine: (line) => {
            if (options.onLine?.(line)) return true;
            if (!options.onJson) return false;
            const value = parseJsonLine(line);
            return value !== undefined && options.onJson(value);
          },
        }),
      { dir: secretDirFor(rt) },
    ),
  );
  const stderrTail = scrub(result.stderrTail, secrets);
  const stdoutTail = scrub(result.stdoutTail, secrets);
  if (result.code === 0 || (result.code !== null && options.acceptCodes?.includes(result.code))) {
    return { code: result.code, stdoutTail, stderrTail };
  }
  const kind = options.signal?.aborted ? 'cancelled' : (classifyExit(result.code, stderrTail, rt.binary.version) ?? 'failed');
  const last = result.signal !== null ? `killed by ${result.signal}` : (stderrTail.filter((l) => l.trim() !== '').at(-1) ?? '');
  const error = new ResticError(kind, describe(kind, command, repo.name, result.code, last), result.code, stderrTail);
  // "No repository yet" is an answer the caller acts on (it creates one), not a failure to report.
  const log = rt.logger ?? silentLogger;
  const fields = { repo: repo.name, command, kind, code: result.code, stderrTail };
  if (kind === 'no_repo') log.debug('restic failed', fields);
  else log.warn('restic failed', fields);
  throw error;
}
