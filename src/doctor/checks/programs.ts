// The programs Sanad drives: Node itself, restic (required), rclone (for rclone repositories and
// the offsite copy) and age (to open an offsite copy by hand with the recovery kit).
import { findRestic } from '../../backup/restic/index.js';
import { runChild } from '../../process/spawn.js';
import { fail, messageOf, ok, warn, type DoctorCheck } from '../check.js';

export function nodeCheck(): DoctorCheck {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return major > 20 || (major === 20 && minor >= 18)
    ? ok('node', `Node ${process.versions.node}`)
    : fail('node', `Node ${process.versions.node} is older than Sanad needs (20.18)`, 'install Node 20.18 or newer');
}

export async function resticCheck(): Promise<DoctorCheck> {
  try {
    const binary = await findRestic({ ...(process.env.SANAD_RESTIC ? { configuredPath: process.env.SANAD_RESTIC } : {}) });
    return ok('restic', `restic ${binary.version.join('.')} at ${binary.path} runs`);
  } catch (err) {
    return fail('restic', messageOf(err), 'install restic (apt install restic), or set SANAD_RESTIC to its path');
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
  if (v !== null) return ok('rclone', v);
  return needed
    ? fail('rclone', 'rclone is not installed, and an rclone repository or the offsite copy needs it', 'install rclone (apt install rclone)')
    : warn('rclone', 'rclone is not installed (needed only for rclone repositories and the offsite copy)', 'install rclone (apt install rclone) before you add one');
}

export async function ageCheck(): Promise<DoctorCheck> {
  const v = await versionOf('age', ['--version']);
  return v !== null
    ? ok('age', `age ${v}`)
    : warn('age', 'age is not installed (needed only to open an offsite copy by hand)', 'install age (apt install age) on the machine you would restore on');
}
