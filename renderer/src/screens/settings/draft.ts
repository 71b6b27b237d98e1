// The schedule form's draft: text as typed (a number field may hold anything while editing), and
// the PATCH body made from it with only what changed. An entry that is not a number goes as null
// so the server's validation names the field (one rule, the server's); likewise a time of day
// goes as typed ("" included), and the server says whether it is one.
import type { OnRestart, Settings } from './api';

export type BackupWhen = 'interval' | 'daily';

export interface Draft {
  backup_when: BackupWhen;
  backup_interval_hours: string;
  backup_time_of_day: string;
  backup_skip_on_battery: boolean;
  backup_skip_on_metered: boolean;
  backup_paused: boolean;
  drill_paused: boolean;
  default_on_restart: OnRestart;
}

export const FORM_FIELDS = [
  'backup_interval_hours',
  'backup_time_of_day',
  'backup_skip_on_battery',
  'backup_skip_on_metered',
  'backup_paused',
  'drill_paused',
  'default_on_restart',
] as const;

/** Where a daily schedule starts when the person switches to one: a night hour a laptop is often on. */
const FIRST_TIME_OF_DAY = '02:00';

export function draftFrom(s: Settings): Draft {
  return {
    backup_when: s.backup_time_of_day === null ? 'interval' : 'daily',
    backup_interval_hours: String(s.backup_interval_hours),
    backup_time_of_day: s.backup_time_of_day ?? FIRST_TIME_OF_DAY,
    backup_skip_on_battery: s.backup_skip_on_battery,
    backup_skip_on_metered: s.backup_skip_on_metered,
    backup_paused: s.backup_paused,
    drill_paused: s.drill_paused,
    default_on_restart: s.default_on_restart,
  };
}

export function patchFrom(draft: Draft, saved: Settings): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  if (draft.backup_when === 'interval') {
    const typed = draft.backup_interval_hours.trim();
    const hours = typed === '' || !Number.isFinite(Number(typed)) ? null : Number(typed);
    if (hours !== saved.backup_interval_hours) patch.backup_interval_hours = hours;
    if (saved.backup_time_of_day !== null) patch.backup_time_of_day = null;
  } else if (draft.backup_time_of_day.trim() !== saved.backup_time_of_day) {
    patch.backup_time_of_day = draft.backup_time_of_day.trim();
  }
  for (const key of ['backup_skip_on_battery', 'backup_skip_on_metered', 'backup_paused', 'drill_paused'] as const) {
    if (draft[key] !== saved[key]) patch[key] = draft[key];
  }
  if (draft.default_on_restart !== saved.default_on_restart) patch.default_on_restart = draft.default_on_restart;
  return patch;
}
