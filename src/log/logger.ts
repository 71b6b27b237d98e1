// A small structured logger: one JSON line per entry on stderr (or a sink the caller gives).
// Every entry passes through redaction: known secret-bearing keys are masked, and any string
// registered with `addSecret` is replaced wherever it appears, so a token or passphrase that
// slips into a message still never reaches a log.
import { systemClock } from '../clock.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Whole key names that hold a secret, however they are spelt around it. */
const SECRET_NAMES = new Set(['code', 'x-sanad-admin', 'x-sanad-session']);
/** Words that make any key a secret's: `new_password`, `aws_secret_access_key`, `sessionToken`. */
const SECRET_WORDS = new Set(['authorization', 'cookie', 'token', 'password', 'passwd', 'passphrase', 'secret', 'apikey', 'credential', 'credentials']);
/** Pairs of words that do: `api_key`, `private-key`, `loginUrl` (a login link signs in whoever holds it). */
const SECRET_PAIRS = [
  ['api', 'key'],
  ['private', 'key'],
  ['access', 'key'],
  ['login', 'url'],
  ['login', 'link'],
] as const;
/** Deeper than this, a value is dropped rather than looked through. */
const MAX_DEPTH = 8;

/** Whether a field of this name is masked: by its whole name, or by a word in it (snake, kebab or camel case). */
export function isSecretKey(key: string): boolean {
  if (SECRET_NAMES.has(key.toLowerCase())) return true;
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
  if (words.some((w) => SECRET_WORDS.has(w))) return true;
  return SECRET_PAIRS.some(([a, b]) => words.some((w, i) => w === a && words[i + 1] === b));
}

/** SANAD_LOG=debug|info|warn|error; anything else means info. */
export function levelFromEnv(value: string | undefined): LogLevel {
  return value === 'debug' || value === 'warn' || value === 'error' ? value : 'info';
}

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  addSecret(value: string): void;
}

export type LogFormat = 'json' | 'text';

/** `--log-format` (the CLI sets SANAD_LOG_FORMAT), else text for a person at a terminal, else JSON. */
export function logFormatFromEnv(env: NodeJS.ProcessEnv = process.env, tty = process.stderr.isTTY === true): LogFormat {
  if (env.SANAD_LOG_FORMAT === 'json' || env.SANAD_LOG_FORMAT === 'text') return env.SANAD_LOG_FORMAT;
  return tty ? 'text' : 'json';
}

/** `14:03:07 warn  backup to repository failed  repository=nas error="…"`: time, level, message, fields. */
export function textLine(entry: Record<string, unknown>): string {
  const { time, level, msg, ...fields } = entry;
  const at = typeof time === 'string' ? time.slice(11, 19) : '';
  const tail = Object.entries(fields).map(([k, v]) => `${k}=${typeof v === 'string' && /^[\w./:@-]*$/.test(v) ? v : JSON.stringify(v)}`);
  return [`${at} ${String(level).padEnd(5)} ${String(msg)}`, ...tail].join('  ');
}

export function createLogger(
  options: {
    level?: LogLevel;
    sink?: (line: string) => void;
    /** Default: JSON into a given sink; on stderr, logFormatFromEnv(). */
    format?: LogFormat;
  } = {},
): Logger {
  const min = ORDER[options.level ?? 'info'];
  const sink = options.sink ?? ((line: string) => process.stderr.write(line + '\n'));
  const format = options.format ?? (options.sink ? 'json' : logFormatFromEnv());
  const secrets = new Set<string>();

  function scrub(text: string): string {
    let out = text;
    for (const s of secrets) out = out.split(s).join('[redacted]');
    return out;
  }

  function redact(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return scrub(value);
    if (value === null || typeof value !== 'object') return value;
    // Not looked through, so not written: a secret deep inside must not pass unmasked.
    if (depth > MAX_DEPTH) return '[too deep]';
    if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = isSecretKey(k) ? '[redacted]' : redact(v, depth + 1);
    }
    return out;
  }

  function write(level: LogLevel, msg: string, fields?: Record<string, unknown>): void {
    if (ORDER[level] < min) return;
    const entry: Record<string, unknown> = { time: new Date(systemClock.now()).toISOString(), level, msg: scrub(msg) };
    for (const [k, v] of Object.entries(fields ?? {})) entry[k] = isSecretKey(k) ? '[redacted]' : redact(v, 1);
    // Both forms are made from the redacted entry, and scrubbed once more as a whole.
    sink(scrub(format === 'json' ? JSON.stringify(entry) : textLine(entry)));
  }

  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    addSecret: (value: string) => {
      if (value.length >= 8) secrets.add(value);
    },
  };
}

export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  addSecret: () => {},
};
