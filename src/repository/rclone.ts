// The three rclone commands an offsite copy needs, run through `runChild`. Every destination is
// validated first (configured remotes only: no inline backends) and placed after `--`, so nothing
// in it is ever read as a flag. A listing is all or nothing: a non-zero exit, an ERROR line, output
// that is not one JSON array of entries, or more output than we accept is an error, never an
// empty or partial list, because prune decides what to delete from it.
import { isAbsolute } from 'node:path';
import { z } from 'zod/v3';
import { runChild, type ChildResult } from '../process/spawn.js';
import type { Logger } from '../log/logger.js';
import { assertConfiguredRemote, parseRcloneDestination } from './rclone-destination.js';

export interface RcloneOptions {
  /** An rclone.conf to use instead of the user's default one. */
  config?: string;
  /** The rclone binary. Default: `rclone` from PATH. */
  binary?: string;
  signal?: AbortSignal;
  logger?: Logger;
}

export class RcloneError extends Error {
  override readonly name = 'RcloneError';
  constructor(
    message: string,
    readonly exitCode: number | null = null,
  ) {
    super(message);
  }
}

const Entry = z.object({ Path: z.string(), Name: z.string(), Size: z.number().int(), IsDir: z.boolean(), ModTime: z.string().optional() });
export type RcloneEntry = z.infer<typeof Entry>;

/** A listing bigger than this is refused rather than half read (thousands of entries fit easily). */
const MAX_LISTING_BYTES = 32 * 1024 * 1024;

function flags(options: RcloneOptions): string[] {
  // `--config=FILE` as one argument: a path starting with '-' can then never become a flag.
  return options.config === undefined ? [] : [`--config=${options.config}`];
}

async function run(
  options: RcloneOptions,
  args: string[],
  onStdoutLine?: (line: string) => boolean,
  onStderrLine?: (line: string) => void,
): Promise<ChildResult> {
  const command = options.binary ?? 'rclone';
  try {
    return await runChild({
      command,
      args,
      env: {},
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(onStdoutLine ? { onStdoutLine } : {}),
      ...(onStderrLine ? { onStderrLine } : {}),
    });
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'ENOENT')
      throw new RcloneError(`rclone was not found (${command}); install rclone to send offsite copies.`);
    throw err;
  }
}

function failure(what: string, result: ChildResult): RcloneError {
  const last = result.stderrTail.filter((l) => l.trim() !== '').slice(-1)[0] ?? 'no message';
  const how = result.code === null ? `was stopped by ${result.signal ?? 'a signal'}` : `exited with ${result.code}`;
  return new RcloneError(`rclone ${what} ${how}: ${last.trim()}`, result.code);
}

/** `rclone copyto -- SRC DEST`: uploads one local file to exactly `dest` (remote:folder/name). */
export async function rcloneCopyTo(src: string, dest: string, options: RcloneOptions = {}): Promise<void> {
  parseRcloneDestination(dest);
  // An absolute path can never be read as "remote:path" by rclone.
  if (!isAbsolute(src)) throw new RcloneError(`The file to upload must be an absolute path, not "${src}".`);
  const result = await run(options, ['copyto', ...flags(options), '--', src, dest]);
  if (result.code !== 0) throw failure('copyto', result);
}

/** `rclone lsjson -- DEST`: the files directly in a folder; any sign of trouble is an error. */
export async function rcloneLsJson(dest: string, options: RcloneOptions = {}): Promise<RcloneEntry[]> {
  parseRcloneDestination(dest);
  const chunks: string[] = [];
  let bytes = 0;
  let tooBig = false;
  let errorLine: string | undefined;
  const onStdout = (line: string): boolean => {
    bytes += line.length + 1;
    if (bytes > MAX_LISTING_BYTES) tooBig = true;
    else chunks.push(line);
    return true; // kept here, not in the bounded tail, which would silently drop lines
  };
  // rclone logs listing problems as ERROR lines; some backends still exit 0 after one. Watched
  // line by line because the stderr tail is bounded and could lose an early one.
  const onStderr = (line: string): void => {
    if (errorLine === undefined && /\bERROR\b/.test(line)) errorLine = line;
  };
  const result = await run(options, ['lsjson', '--files-only', '--no-mimetype', ...flags(options), '--', dest], onStdout, onStderr);
  if (result.code !== 0) throw failure('lsjson', result);
  if (errorLine !== undefined) throw new RcloneError(`rclone lsjson reported an error, so the listing may be incomplete: ${errorLine.trim()}`);
  if (tooBig) throw new RcloneError(`rclone lsjson printed more than ${MAX_LISTING_BYTES} bytes, so the listing was not read.`);
  let json: unknown;
  try {
    json = JSON.parse(chunks.join('\n'));
  } catch {
    throw new RcloneError('rclone lsjson did not print valid JSON, so the listing cannot be trusted.');
  }
  const parsed = z.array(Entry).safeParse(json);
  if (!parsed.success) throw new RcloneError('rclone lsjson printed entries of an unexpected shape, so the listing cannot be trusted.');
  return parsed.data;
}

/** `rclone deletefile -- DEST`: deletes exactly one object. */
export async function rcloneDeleteFile(dest: string, options: RcloneOptions = {}): Promise<void> {
  parseRcloneDestination(dest);
  const result = await run(options, ['deletefile', ...flags(options), '--', dest]);
  if (result.code !== 0) throw failure('deletefile', result);
}

/** `remote:folder` + `name` → `remote:folder/name` (no doubled or leading slash added). */
export function joinRemote(destination: string, name: string): string {
  const { remote, path } = parseRcloneDestination(destination);
  const folder = path.replace(/\/+$/, '');
  if (folder === '') return path === '' ? `${remote}:${name}` : `${remote}:/${name}`; // "remote:" vs "remote:/"
  return `${remote}:${folder}/${name}`;
}

/** The remotes rclone has configured (`rclone listremotes`, with the given rclone.conf). */
export async function listRemotes(options: RcloneOptions = {}): Promise<string> {
  const lines: string[] = [];
  const result = await run(options, [...flags(options), 'listremotes'], (line) => {
    lines.push(line);
    return true;
  });
  if (result.code !== 0)
    throw new RcloneError(`rclone could not list its remotes (exit ${String(result.code)}): ${result.stderrTail.slice(-3).join(' ')}`.trim(), result.code);
  return lines.join('\n');
}

/** Refuses, in one sentence, a destination whose remote rclone does not have configured. */
export async function assertRemoteConfigured(destination: string, options: RcloneOptions = {}): Promise<void> {
  assertConfiguredRemote(parseRcloneDestination(destination), await listRemotes(options));
}
