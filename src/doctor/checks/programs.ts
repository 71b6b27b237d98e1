// The programs Sanad drives: Node itself, restic (required), rclone (for rclone repositories and
// the offsite copy) and age (to open an offsite copy by hand with the recovery kit).
import { findRestic } from '../../repository/restic/index.js';
import { runChild } from '../../process/spawn.js';
import { errorParam } from '../../contract/said.js';
import { say } from '../../contract/said/index.js';
import { fail, ok, warn, type DoctorCheck } from '../check.js';

export const NODE_MAJOR_NEEDED = 24;

export function nodeCheck(): DoctorCheck {
  // Node 24 LTS: the Node inside Electron 45, and a supported one (Node 20 reached its end of life
  // in April 2026). package.json's engines says the same.
  const [major = 0] = process.versions.node.split('.').map(Number);
  return major >= NODE_MAJOR_NEEDED
    ? ok('node', say('doctor.node_ok', { version: process.versions.node }))
    : fail(
        'node',
        say('doctor.node_old', { version: process.versions.node, needed: String(NODE_MAJOR_NEEDED) }),
        say('doctor.fix.node', { needed: String(NODE_MAJOR_NEEDED) }),
      );
}

export async function resticCheck(): Promise<DoctorCheck> {
  try {
    const binary = await findRestic({ ...(process.env.SANAD_RESTIC ? { configuredPath: process.env.SANAD_RESTIC } : {}) });
    return ok('restic', say('doctor.restic_ok', { version: binary.version.join('.'), path: binary.path }));
  } catch (err) {
    return fail('restic', say('doctor.error', { error: errorParam(err) }), say('doctor.fix.restic'));
  }
}

/** `rclone version` / `age --version`: the first line, or null when the program is not there. */
async function versionOf(command: string, args: string[]): Promise<string | null> {
  try {
    const r = await runChild({ command, args, env: {} });
    return r.code === 0 ? ([...r.stdoutTail, ...r.stderrTail][0]?.trim() ?? command) : null;
  } catch {
    return null;
  }
}

export async function rcloneCheck(needed: boolean): Promise<DoctorCheck> {
  const v = await versionOf('rclone', ['version']);
  if (v !== null) return ok('rclone', say('doctor.version', { version: v }));
  return needed
    ? fail('rclone', say('doctor.rclone_needed'), say('doctor.fix.rclone'))
    : warn('rclone', say('doctor.rclone_optional'), say('doctor.fix.rclone_later'));
}

export async function ageCheck(): Promise<DoctorCheck> {
  const v = await versionOf('age', ['--version']);
  return v !== null ? ok('age', say('doctor.age_ok', { version: v })) : warn('age', say('doctor.age_missing'), say('doctor.fix.age'));
}
