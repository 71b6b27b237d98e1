// The programs Sanad drives: Node itself, restic (required), rclone (for rclone repositories and
// the offsite copy) and age (to open an offsite copy by hand with the recovery kit).
import { findRestic } from '../../backup/restic/index.js';
import { runChild } from '../../process/spawn.js';
import { errorParam } from '../../contract/said.js';
import { say } from '../../contract/said/index.js';
import { fail, ok, warn, type DoctorCheck } from '../check.js';

export function nodeCheck(): DoctorCheck {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return major > 20 || (major === 20 && minor >= 18)
    ? ok('node', say('doctor.node_ok', { version: process.versions.node }))
    : fail('node', say('doctor.node_old', { version: process.versions.node, needed: '20.18' }), say('doctor.fix.node', { needed: '20.18' }));
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
  return v !== null
    ? ok('age', say('doctor.age_ok', { version: v }))
    : warn('age', say('doctor.age_missing'), say('doctor.fix.age'));
}
