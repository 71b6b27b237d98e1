// The little the desktop shell remembers across launches, in one JSON file in Electron's userData
// (not the core's store: it is the shell's own bookkeeping, and the headless `sanad serve` has no
// use for it). It holds no secret: alert keys with times, a backup run id and the last screen.
//   notified     which alert occurrences were already notified (notify-dedupe.ts);
//   interrupted  the id of a backup run the shell interrupted (suspend, Quit), until a later run
//                has answered: its `backup.failed` notification is held, and the backup is retried
//                at the next resume or launch (sleep-wake.ts).
// Written whole to a temp file and renamed, so a crash leaves the old or the new file, never half.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod/v3';
import type { NotifiedAlerts } from './notify-dedupe.js';

const StateSchema = z.object({
  notified: z.record(z.string(), z.number().int()).default({}),
  interrupted: z.number().int().nullable().default(null),
  /** The data dir to serve instead of the default one: set by the recovery screen after a restore
   *  of a damaged store (recovery-server.ts), so the next launch opens the restored data. */
  dataDir: z.string().optional(),
  /** The GUI's route when the person last moved (last-screen.ts): the window opens there. */
  lastScreen: z.string().optional(),
});

export type DesktopState = z.infer<typeof StateSchema>;

export const DESKTOP_STATE_FILE = 'desktop-state.json';

/** A missing or damaged file reads as the empty state: at worst an alert notifies once more. */
export function readDesktopState(path: string): DesktopState {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    raw = {};
  }
  const parsed = StateSchema.safeParse(raw);
  return parsed.success ? parsed.data : StateSchema.parse({});
}

export function writeDesktopState(path: string, state: DesktopState): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}

/** The state in memory, written through on every change. */
export class DesktopStateFile {
  private state: DesktopState;

  constructor(private readonly path: string) {
    this.state = readDesktopState(path);
  }

  get notified(): NotifiedAlerts {
    return this.state.notified;
  }

  get interrupted(): number | null {
    return this.state.interrupted;
  }

  get lastScreen(): string | null {
    return this.state.lastScreen ?? null;
  }

  get dataDir(): string | null {
    return this.state.dataDir ?? null;
  }

  update(patch: Partial<DesktopState>): void {
    this.state = { ...this.state, ...patch };
    writeDesktopState(this.path, this.state);
  }
}
