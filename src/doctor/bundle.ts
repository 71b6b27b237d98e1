// "Save diagnostics": one .tar.gz a person can hand over when something went wrong, made by
// `sanad doctor --bundle FILE`, the Settings screen and the desktop app's error box alike. It holds
// the doctor's report, the last log lines, versions and the settings, and never a secret: the data
// dir's own secrets are replaced wherever they appear, and so is anything shaped like a token, a
// password in a URL or a secret-named field, whatever wrote it.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir, platform, release, arch } from 'node:os';
import { join } from 'node:path';
import { create as createTar } from 'tar';
import { systemClock, type Clock } from '../clock.js';
import { HUB_TOKEN, RESTIC_PASSPHRASE, RESTIC_PASSPHRASE_NEXT, VAULT_KEY, VAULT_KEY_NEXT, type SecretStore } from '../secrets/secret-store.js';
import { openStore, storePath } from '../store/open.js';
import { readSettings } from '../store/settings.js';
import { APP_VERSION } from '../version.js';
import type { DoctorCheck } from './check.js';

/** How much of each log the bundle keeps: the end, where the failure is. */
export const LOG_TAIL_LINES = 2000;
const LOG_TAIL_BYTES = 4 * 1024 * 1024;

export interface BundleInput {
  dataDir: string;
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
// and key = value or "key": "value" where the key names a secret.
const SHAPES: ReadonlyArray<[RegExp, string]> = [
  [/sk-sanad-[A-Za-z0-9_-]+/g, REDACTED],
  [/(bearer\s+)[^\s"',]+/gi, `$1${REDACTED}`],
  [/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@"']+:[^/\s@"']+@/gi, `$1${REDACTED}@`],
  // The key must end in the secret's name: `max_output_tokens_limit` is a number, not a token.
  [/("?[\w-]*(?:password|passphrase|secret|token|api[_-]?key|access[_-]?key|vault[_-]?key)"?\s*[:=]\s*)("[^"]*"|[^\s,}]+)/gi, `$1"${REDACTED}"`],
];

/** Text with every known secret and every secret-shaped value replaced. */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  // Longest first, so a secret that contains another is removed whole.
  for (const s of [...secrets].filter((v) => v.length >= 8).sort((a, b) => b.length - a.length)) out = out.split(s).join(REDACTED);
  for (const [shape, replacement] of SHAPES) out = out.replace(shape, replacement);
  return out;
}

/** The last `LOG_TAIL_LINES` lines of a file (reading at most its last 4 MiB), or why not. */
function tail(file: string): string {
  try {
    const size = statSync(file).size;
    const all = readFileSync(file);
    const text = all.subarray(Math.max(0, size - LOG_TAIL_BYTES)).toString('utf8');
    return text.split('\n').slice(-LOG_TAIL_LINES).join('\n');
  } catch (err) {
    return `(could not read ${file}: ${err instanceof Error ? err.message : String(err)})`;
  }
}

function settingsOf(dataDir: string): unknown {
  if (!existsSync(storePath(dataDir))) return null;
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
      'README.txt': `Sanad diagnostics, made ${new Date((input.clock ?? systemClock).now()).toISOString()} for the data dir ${input.dataDir}.\nSecrets, tokens and passwords are replaced by ${REDACTED}.\n`,
      'doctor.json': json(input.checks),
      'versions.json': json({ sanad: APP_VERSION, node: process.versions.node, os: `${platform()} ${release()}`, arch: arch(), ...input.extra }),
      'settings.json': json(settingsOf(input.dataDir)),
    };
    input.logFiles.forEach((file, i) => {
      files[`log-${i + 1}.txt`] = redactText(`# the last lines of ${file}\n${tail(file)}\n`, input.secrets);
    });
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
