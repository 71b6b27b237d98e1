// One line of `sanad doctor` (and of the GUI's Settings → Diagnostics): what was found and the fix.
export type DoctorStatus = 'ok' | 'warn' | 'fail';

export interface DoctorCheck {
  /** A stable code (`restic`, `repo:nas`…): the GUI words the label by it. */
  name: string;
  status: DoctorStatus;
  /** What was found, one sentence. */
  detail: string;
  /** What to do about it (null when nothing is to be done). */
  fix: string | null;
}

export const ok = (name: string, detail: string): DoctorCheck => ({ name, status: 'ok', detail, fix: null });
export const warn = (name: string, detail: string, fix: string | null): DoctorCheck => ({ name, status: 'warn', detail, fix });
export const fail = (name: string, detail: string, fix: string | null): DoctorCheck => ({ name, status: 'fail', detail, fix });
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
