// "Save diagnostics": one .tar.gz a person can hand over when something went wrong, made by
// `sanad doctor --bundle FILE`, the Settings screen and the desktop app's error box alike. It holds
// the doctor's report, the last log lines, versions and the settings, and never a secret: the data
// dir's own secrets are replaced wherever they appear, and so is anything shaped like a token, a
// password in a URL or a secret-named field, whatever wrote it.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir, platform, release, arch } from 'node:os';
import { join } from 'node:path';
import { create as createTar } from 'tar';
import { systemClock, type Clock } from '../clock.js';
import { HUB_TOKEN, RESTIC_PASSPHRASE, RESTIC_PASSPHRASE_NEXT, VAULT_KEY, VAULT_KEY_NEXT, type SecretStore } from '../secrets/secret-store.js';
import { openStore } from '../store/open.js';
import { readSettings } from '../store/settings.js';
import { APP_VERSION } from '../version.js';
import type { DoctorCheck } from './check.js';
import { storePath } from '../files/data-dir-layout.js';

/** How much of each log the bundle keeps: the end, where the failure is. */
export const LOG_TAIL_LINES = 2000;
const LOG_TAIL_BYTES = 4 * 1024 * 1024;

export interface BundleInput {
  /** null when the app failed before it knew its data dir: the bundle then has no settings. */
  dataDir: string | null;
  out: string;
  checks: DoctorCheck[];
  /** Log files to take the last lines of (the desktop's sanad.log, a serve's redirected stderr). */
  logFiles: readonly string[];
  /** Values to remove wherever they appear (the data dir's vault key and backup passphrase). */
  secrets: readonly string[];
  /** What the app adds (Electron's and Chromium's versions, the crash that led here). */
  extra?: Record<string, unknown>;
  clock?: Clock;
}

const REDACTED = '[redacted]';
// Shapes of secrets, whoever wrote them: Sanad's own tokens, bearer headers, a URL's user:password,
// key = value or "key": "value" where the key names a secret (a session header too), login links'
// codes and pairing codes.
const SHAPES: ReadonlyArray<[RegExp, string]> = [
  [/sk-sanad-[A-Za-z0-9_-]+/g, REDACTED],
  [/(bearer\s+)[^\s"',]+/gi, `$1${REDACTED}`],
  [/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@"']+:[^/\s@"']+@/gi, `$1${REDACTED}@`],
  // The key must end in the secret's name: `max_output_tokens_limit` is a number, not a token.
  [
    /("?[\w-]*(?:password|passphrase|secret|token|session|api[_-]?key|access[_-]?key|vault[_-]?key|pairing[_-]?code|login[_-]?code)"?\s*[:=]\s*)("[^"]*"|[^\s,}]+)/gi,
    `$1"${REDACTED}"`,
  ],
  // A GUI login link signs in whoever opens it within minutes: its code, and any secret-named query value.
  [/([?&](?:code|token|session|key)=)[^&\s"'#]+/gi, `$1${REDACTED}`],
  // A pairing code as Sanad prints it (two groups of four from its alphabet): a device's way in.
  [/\b[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}\b/g, REDACTED],
];

/** Text with every known secret and every secret-shaped value replaced. */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  // Longest first, so a secret that contains another is removed whole.
  for (const s of [...secrets].filter((v) => v.length >= 8).sort((a, b) => b.length - a.length)) out = out.split(s).join(REDACTED);
  for (const [shape, replacement] of SHAPES) out = out.replace(shape, replacement);
  return out;
}

/** The last `LOG_TAIL_LINES` lines of a file, reading only its last 4 MiB (asynchronously: the
 *  GUI's route runs this in the service), or why it could not be read. */
async function tail(file: string): Promise<string> {
  try {
    const handle = await open(file, 'r');
    try {
      const { size } = await handle.stat();
      const length = Math.min(size, LOG_TAIL_BYTES);
      const buffer = Buffer.alloc(length);
      await handle.read(buffer, 0, length, size - length);
      return buffer.toString('utf8').split('\n').slice(-LOG_TAIL_LINES).join('\n');
    } finally {
      await handle.close();
    }
  } catch (err) {
    return `(could not read ${file}: ${err instanceof Error ? err.message : String(err)})`;
  }
}

function settingsOf(dataDir: string | null): unknown {
  if (dataDir === null || !existsSync(storePath(dataDir))) return null;
  try {
    const db = openStore(storePath(dataDir), { readonly: true });
    try {
      return readSettings(db);
    } finally {
      db.close();
    }
  } catch (err) {
    return { unreadable: err instanceof Error ? err.message : String(err) };
  }
}

/** Writes the bundle to `input.out` (0600, never over an existing file) and returns what it holds. */
export async function writeDiagnosticsBundle(input: BundleInput): Promise<string[]> {
  const work = mkdtempSync(join(tmpdir(), 'sanad-diagnostics-'));
  try {
    const json = (value: unknown): string => redactText(`${JSON.stringify(value, null, 2)}\n`, input.secrets);
    const files: Record<string, string> = {
      'README.txt': `Sanad diagnostics, made ${new Date((input.clock ?? systemClock).now()).toISOString()} for the data dir ${input.dataDir ?? '(not known yet)'}.\nSecrets, tokens and passwords are replaced by ${REDACTED}.\n`,
      'doctor.json': json(input.checks),
      'versions.json': json({ sanad: APP_VERSION, node: process.versions.node, os: `${platform()} ${release()}`, arch: arch(), ...input.extra }),
      'settings.json': json(settingsOf(input.dataDir)),
    };
    for (const [i, file] of input.logFiles.entries()) {
      files[`log-${i + 1}.txt`] = redactText(`# the last lines of ${file}\n${await tail(file)}\n`, input.secrets);
    }
    for (const [name, text] of Object.entries(files)) writeFileSync(join(work, name), text, { mode: 0o600 });
    // wx: a bundle never replaces a file the person already has.
    writeFileSync(input.out, '', { mode: 0o600, flag: 'wx' });
    await createTar({ gzip: true, file: input.out, cwd: work, portable: true }, Object.keys(files));
    return Object.keys(files);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Every secret the data dir keeps, to be removed from the bundle; none when they cannot be read. */
export async function secretsToRedact(store: SecretStore | null): Promise<string[]> {
  if (store === null) return [];
  const out: string[] = [];
  for (const name of [VAULT_KEY, VAULT_KEY_NEXT, RESTIC_PASSPHRASE, RESTIC_PASSPHRASE_NEXT, HUB_TOKEN]) {
    const value = await store.get(name).catch(() => null);
    if (value) out.push(value);
  }
  return out;
}
