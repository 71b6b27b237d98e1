// The offsite target form as data: which fields each type has, the draft the form edits, the
// request bodies it becomes (add and edit), and which field a server error is about. Pure, so the
// rules are tested without a browser; TargetForm.tsx only renders them.
import type { Repository } from '../../../../src/contract/repositories';
import type { z } from 'zod/v3';
import type { AddRepositoryRequest, RepositoryPatchRequest } from '../../../../src/contract/admin-requests';

export type TargetType = 's3' | 'rest' | 'rclone' | 'folder';
export const TARGET_TYPES: readonly TargetType[] = ['s3', 'rest', 'rclone', 'folder'];

/** The target's type as the form knows it (a newer core's unknown kind is edited as S3's fields). */
export function targetTypeOf(type: string): TargetType {
  return TARGET_TYPES.find((x) => x === type) ?? 's3';
}

export type FieldName = 'name' | 'location' | 'region' | 'access_key_id' | 'secret' | 'user' | 'cacert' | 'rclone_config';

/** The fields of each type, in the order they are shown. */
export const FIELDS: Record<TargetType, readonly FieldName[]> = {
  s3: ['name', 'location', 'region', 'access_key_id', 'secret', 'cacert'],
  rest: ['name', 'location', 'user', 'secret', 'cacert'],
  rclone: ['name', 'location', 'rclone_config'],
  folder: ['name', 'location'],
};

/** Fields the user must fill when adding (the server checks the same). */
export const REQUIRED: Record<TargetType, readonly FieldName[]> = {
  s3: ['name', 'location', 'access_key_id', 'secret'],
  rest: ['name', 'location'],
  rclone: ['name', 'location'],
  folder: ['name', 'location'],
};

export interface TargetDraft {
  type: TargetType;
  name: string;
  location: string;
  region: string;
  access_key_id: string;
  /** Write-only: empty in an edit means "keep the stored one". */
  secret: string;
  user: string;
  cacert: string;
  rclone_config: string;
  enabled: boolean;
}

export function emptyDraft(type: TargetType = 's3'): TargetDraft {
  return { type, name: '', location: '', region: '', access_key_id: '', secret: '', user: '', cacert: '', rclone_config: '', enabled: true };
}

/** An edit starts from what the server shows; the secret is never among it. */
export function draftFrom(repo: Repository): TargetDraft {
  const type = targetTypeOf(repo.type);
  const o = repo.options;
  return {
    type,
    name: repo.name,
    location: repo.location,
    region: o.region ?? '',
    access_key_id: o.access_key_id ?? '',
    secret: '',
    user: o.user ?? '',
    cacert: o.cacert ?? '',
    rclone_config: o.rclone_config ?? '',
    enabled: repo.enabled,
  };
}

type OptionKey = 'region' | 'access_key_id' | 'user' | 'cacert' | 'rclone_config';
const OPTION_KEYS: readonly OptionKey[] = ['region', 'access_key_id', 'user', 'cacert', 'rclone_config'];

/** The options of the draft's type that are filled in (blank is absent; other types' are dropped). */
export function optionsOf(draft: TargetDraft): Partial<Record<OptionKey, string>> {
  const out: Partial<Record<OptionKey, string>> = {};
  for (const key of OPTION_KEYS) {
    const value = draft[key].trim();
    if (FIELDS[draft.type].includes(key) && value !== '') out[key] = value;
  }
  return out;
}

export type AddBody = z.input<typeof AddRepositoryRequest>;

export function addBody(draft: TargetDraft): AddBody {
  const secret = FIELDS[draft.type].includes('secret') ? draft.secret : '';
  return { name: draft.name.trim(), type: draft.type, location: draft.location.trim(), options: optionsOf(draft), ...(secret !== '' ? { secret } : {}) };
}

export type PatchBody = z.input<typeof RepositoryPatchRequest>;

/** An edit sends the whole non-secret set, and a secret only when one was typed. */
export function patchBody(draft: TargetDraft): PatchBody {
  const secret = FIELDS[draft.type].includes('secret') ? draft.secret : '';
  return { location: draft.location.trim(), options: optionsOf(draft), enabled: draft.enabled, ...(secret !== '' ? { secret } : {}) };
}

/** The field a server error's `param` is about, or null (then it is shown above the form). */
export function fieldForParam(param: string | null): FieldName | null {
  if (param === null) return null;
  if (param === 'url' || param === 'remote' || param === 'location') return 'location';
  const key = param.startsWith('options.') ? param.slice('options.'.length) : param;
  const fields: readonly FieldName[] = ['name', 'region', 'access_key_id', 'secret', 'user', 'cacert', 'rclone_config'];
  return fields.find((f) => f === key) ?? null;
}
