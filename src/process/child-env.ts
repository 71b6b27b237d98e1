// The environment a child starts with. Children do NOT inherit Sanad's whole environment: the
// parent may hold secrets (a RESTIC_PASSWORD a user exported, cloud keys, the admin token of a
// dev shell) and a stray RESTIC_REPOSITORY or AWS_PROFILE would silently change what a child
// talks to. Only the variables a well-behaved CLI needs to find programs, its home, its locale,
// its temp dir and its time zone pass through; everything else is given explicitly by the caller.
const PASS_THROUGH = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TMPDIR',
  'TZ',
  'XDG_CACHE_HOME',
  'XDG_CONFIG_HOME',
  'XDG_RUNTIME_DIR',
  'SYSTEMROOT',
  'WINDIR',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
];

export function safeBaseEnv(parent: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of PASS_THROUGH) {
    const value = parent[key];
    if (value !== undefined) out[key] = value;
  }
  // A child without PATH could not find helpers (restic runs rclone); give a conventional one.
  out.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  return out;
}

/** The base, then the caller's variables on top (the caller wins). */
export function childEnv(extra: Record<string, string>, parent: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return { ...safeBaseEnv(parent), ...extra };
}
