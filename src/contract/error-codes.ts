// Every error code a client can meet, declared once: the HTTP status and OpenAI-style `type` it is
// answered with, and the `param` it names when the code itself says which field is at fault. The
// server builds its errors from here (service/errors.ts: a code not listed does not compile), the
// GUI words the codes it knows in the reader's language from the same list, and a task's failure
// codes (`response.error.code`) are here too, since a foreground request answers some of them as
// its HTTP error. Renaming a code breaks the build, not a user.

export const ERROR_TYPES = [
  'invalid_request_error',
  'authentication_error',
  'permission_error',
  'not_found_error',
  'conflict_error',
  'rate_limit_error',
  'server_error',
  'insufficient_storage_error',
  'service_unavailable_error',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

interface Entry {
  status: number;
  type: ErrorType;
  /** The field the code is always about (null: the message or the call site names it). */
  param: string | null;
}

const bad = (param: string | null = null): Entry => ({ status: 400, type: 'invalid_request_error', param });
const gone = (param: string | null = null): Entry => ({ status: 404, type: 'not_found_error', param });
const conflict = (param: string | null = null): Entry => ({ status: 409, type: 'conflict_error', param });
const denied = (status: 401 | 403): Entry => ({ status, type: status === 401 ? 'authentication_error' : 'permission_error', param: null });
const unavailable = (): Entry => ({ status: 503, type: 'service_unavailable_error', param: null });
const failed = (): Entry => ({ status: 500, type: 'server_error', param: null });

export const ERROR_CATALOG = {
  // ---- The request itself
  invalid_request_error: bad(),
  invalid_json: bad(),
  too_deep: bad(),
  invalid_url: bad(),
  request_too_large: { status: 413, type: 'invalid_request_error', param: null },
  unsupported_media_type: { status: 415, type: 'invalid_request_error', param: null },
  invalid_json_schema: bad(),
  // The model's answer broke a schema the grammar could not hold. A 400, so no client retries it
  // by itself (LangChain retries a 5xx six times, and a greedy model writes the same answer again):
  // the request, a schema this model cannot meet, is what to change.
  output_schema_mismatch: bad(),
  // A generation that took longer than its time budget per output token (a grammar too costly for
  // the model to follow, usually): a 400 too, since trying the same request again costs the same.
  generation_too_slow: bad(),
  context_length_exceeded: bad('input'),
  // An effort above none for a model that does not think (known once it is loaded).
  reasoning_not_supported: bad('reasoning.effort'),
  infill_not_supported: bad('suffix'),
  model_not_generative: bad('model'),
  model_not_reranker: bad('model'),
  model_is_reranker: bad('model'),
  search_too_slow: bad('q'),
  max_output_tokens_too_large: bad('max_output_tokens'),
  missing_code: bad('code'),
  passphrase_refused: bad(),
  rclone_remote_unknown: bad(),
  target_refused: bad(),
  invalid_id: bad('id'),
  invalid_uri: bad('uri'),
  invalid_setting: bad(),
  file_not_found: bad('path'),
  not_gguf: bad('path'),
  not_absolute: bad('path'),
  no_quant: bad('uri'),
  no_space: { status: 507, type: 'insufficient_storage_error', param: null },
  needs_token: denied(403),
  // ---- Who is asking
  invalid_api_key: denied(401),
  session_expired: denied(401),
  login_code_invalid: denied(403),
  insufficient_scope: denied(403),
  forbidden_host: denied(403),
  forbidden_origin: denied(403),
  pairing_code_invalid: denied(403),
  // ---- What was named
  not_found: gone(),
  model_not_found: gone('model'),
  response_not_found: gone(),
  previous_response_not_found: gone('previous_response_id'),
  conversation_not_found: gone('conversation'),
  item_not_found: gone(),
  task_not_found: gone(),
  client_not_found: gone(),
  alert_not_found: gone(),
  asset_not_found: gone(),
  drill_not_found: gone(),
  pull_not_found: gone(),
  repository_not_found: gone(),
  restore_not_found: gone(),
  run_not_found: gone(),
  secret_not_found: gone(),
  generation_not_found: gone(),
  // ---- The state it is in
  previous_response_not_stored: bad('previous_response_id'),
  previous_response_in_progress: conflict('previous_response_id'),
  alert_critical: bad('action'),
  response_not_terminal: conflict(),
  task_not_cancellable: conflict(),
  model_exists: conflict('id'),
  backup_running: conflict(),
  drill_running: conflict(),
  restore_running: conflict(),
  /** A cancel of a run that already ended. */
  run_not_open: conflict(),
  /** A cancel of a run another process (a `sanad` command) holds: stop it there. */
  run_elsewhere: conflict(),
  rotation_running: conflict(),
  switch_in_progress: conflict(),
  restore_not_succeeded: conflict(),
  restored_data_in_use: conflict(),
  generation_not_sanad: conflict(),
  generation_too_new: conflict(),
  generation_unreadable: conflict(),
  lan_off: gone(),
  idempotency_key_reused: conflict('Idempotency-Key'),
  idempotency_key_in_progress: conflict('Idempotency-Key'),
  idempotent_answer_not_stored: conflict('Idempotency-Key'),
  idempotent_answer_deleted: conflict('Idempotency-Key'),
  invalid_idempotency_key: bad('Idempotency-Key'),
  not_replayable: conflict('Idempotency-Key'),
  cancelled: { status: 499, type: 'invalid_request_error', param: null },
  // ---- Limits
  rate_limited: { status: 429, type: 'rate_limit_error', param: null },
  pairing_backoff: { status: 429, type: 'rate_limit_error', param: null },
  insufficient_storage: { status: 507, type: 'insufficient_storage_error', param: null },
  // ---- The service
  internal_error: failed(),
  engine_error: failed(),
  passphrase_not_rotated: failed(),
  server_restarted: failed(),
  model_missing: unavailable(),
  model_changed: unavailable(),
  unreachable: { status: 502, type: 'server_error', param: null },
  bad_answer: { status: 502, type: 'server_error', param: null },
  download_failed: { status: 502, type: 'server_error', param: null },
  checksum_mismatch: { status: 502, type: 'server_error', param: null },
  size_mismatch: { status: 502, type: 'server_error', param: null },
  stopping: unavailable(),
  store_not_durable: unavailable(),
  keychain_unavailable: unavailable(),
  drill_unavailable: unavailable(),
  lan_unavailable: conflict(),
  switch_unavailable: conflict(),
  connection_limit: unavailable(),
  restored_data_missing: conflict(),
  repository_missing_binary: unavailable(),
  repository_partial: unavailable(),
  repository_no_repo: unavailable(),
  repository_locked: unavailable(),
  repository_wrong_password: unavailable(),
  repository_unreachable: unavailable(),
  repository_failed: unavailable(),
  repository_cancelled: unavailable(),
} as const satisfies Record<string, Entry>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CATALOG, code);
}

export function errorEntry(code: ErrorCode): Entry {
  return ERROR_CATALOG[code];
}
