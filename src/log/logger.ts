// A small structured logger: one JSON line per entry on stderr (or a sink the caller gives).
// Every entry passes through redaction: known secret-bearing keys are masked, and any string
// registered with `addSecret` is replaced wherever it appears, so a token or passphrase that
// slips into a message still never reaches a log.
import { systemClock } from '../clock.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

const SECRET_KEYS = /^(authorization|cookie|set-cookie|token|password|passphrase|secret|secret_access_key|api_key|code|x-sanad-admin)$/i;

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

export function createLogger(options: {
  level?: LogLevel;
  sink?: (line: string) => void;
  /** Default: JSON into a given sink; on stderr, logFormatFromEnv(). */
  format?: LogFormat;
} = {}): Logger {
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
    if (depth > 4 || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = SECRET_KEYS.test(k) ? '[redacted]' : redact(v, depth + 1);
    }
    return out;
  }

  function write(level: LogLevel, msg: string, fields?: Record<string, unknown>): void {
    if (ORDER[level] < min) return;
    const entry: Record<string, unknown> = { time: new Date(systemClock.now()).toISOString(), level, msg: scrub(msg) };
    for (const [k, v] of Object.entries(fields ?? {})) entry[k] = SECRET_KEYS.test(k) ? '[redacted]' : redact(v, 1);
    // Both forms are made from the redacted entry; the text one is scrubbed once more as a whole.
    sink(format === 'json' ? JSON.stringify(entry) : scrub(textLine(entry)));
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
