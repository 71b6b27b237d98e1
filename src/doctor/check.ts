// One line of `sanad doctor` (and of the GUI's Settings → Diagnostics): what was found and the fix,
// each a saying (code and params) with its English sentence, so the GUI words it in its language.
import type { Said, Spoken } from '../contract/said.js';

export type DoctorStatus = 'ok' | 'warn' | 'fail';

export interface DoctorCheck extends Said {
  /** A stable code (`restic`, `repo:nas`…): the GUI words the label by it. */
  name: string;
  status: DoctorStatus;
  /** What was found, one English sentence (from `code` and `params`). */
  detail: string;
  /** What to do about it, in English (null when nothing is to be done). */
  fix: string | null;
  fix_said: Said | null;
}

function check(name: string, status: DoctorStatus, found: Spoken, fix: Spoken | null): DoctorCheck {
  return {
    name,
    status,
    code: found.code,
    params: found.params,
    detail: found.detail,
    fix: fix?.detail ?? null,
    fix_said: fix === null ? null : { code: fix.code, params: fix.params },
  };
}

export const ok = (name: string, found: Spoken): DoctorCheck => check(name, 'ok', found, null);
export const warn = (name: string, found: Spoken, fix: Spoken | null): DoctorCheck => check(name, 'warn', found, fix);
export const fail = (name: string, found: Spoken, fix: Spoken | null): DoctorCheck => check(name, 'fail', found, fix);
