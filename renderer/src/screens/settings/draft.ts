// The schedule form's draft: text as typed (a number field may hold anything while editing), and
// the PATCH body made from it with only what changed. An entry that is not a number goes as null
// so the server's validation names the field (one rule, the server's).
import type { OnRestart, Settings } from './api';

export interface Draft {
  backup_interval_hours: string;
  backup_paused: boolean;
  drill_paused: boolean;
  default_on_restart: OnRestart;
}

export const FORM_FIELDS = ['backup_interval_hours', 'backup_paused', 'drill_paused', 'default_on_restart'] as const;

export function draftFrom(s: Settings): Draft {
  return { backup_interval_hours: String(s.backup_interval_hours), backup_paused: s.backup_paused, drill_paused: s.drill_paused, default_on_restart: s.default_on_restart };
}

export function patchFrom(draft: Draft, saved: Settings): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  const typed = draft.backup_interval_hours.trim();
  const hours = typed === '' || !Number.isFinite(Number(typed)) ? null : Number(typed);
  if (hours !== saved.backup_interval_hours) patch.backup_interval_hours = hours;
  if (draft.backup_paused !== saved.backup_paused) patch.backup_paused = draft.backup_paused;
  if (draft.drill_paused !== saved.drill_paused) patch.drill_paused = draft.drill_paused;
  if (draft.default_on_restart !== saved.default_on_restart) patch.default_on_restart = draft.default_on_restart;
  return patch;
}
