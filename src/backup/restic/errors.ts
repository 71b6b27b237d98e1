// Typed restic failures. Exit codes are authoritative where restic defines them (3 since 0.9,
// 10/11/12 since 0.17); older releases (Debian's 0.14) say 1 for everything, so their stderr text
// is classified instead. Messages are one sentence plus what to do, and never contain a password.
export type ResticErrorKind =
  | 'missing_binary'
  | 'partial'
  | 'no_repo'
  | 'locked'
  | 'wrong_password'
  | 'unreachable'
  | 'failed'
  | 'cancelled';

export class ResticError extends Error {
  override readonly name = 'ResticError';
  constructor(
    readonly kind: ResticErrorKind,
    message: string,
    readonly exitCode: number | null = null,
    readonly stderrTail: string[] = [],
  ) {
    super(message);
  }
}

const TEXT_PATTERNS: Array<[RegExp, ResticErrorKind]> = [
  [/wrong password or no key found/i, 'wrong_password'],
  // Before no_repo: 0.14 says "Is there a repository…?" for a server that is simply down, and
  // taking that for "no repository" would make Sanad try to create one on a dead remote.
  [/connection refused|dial tcp|no such host|TLS handshake|i\/o timeout|network is unreachable|context deadline exceeded/i, 'unreachable'],
  [/unable to open config file|Is there a repository at the following location\?|repository does not exist/i, 'no_repo'],
  [/repository is already locked|unable to create lock in backend/i, 'locked'],
];

/** The kind for a finished restic run; `null` means success. */
export function classifyExit(code: number | null, stderrTail: readonly string[], version: readonly number[]): ResticErrorKind | null {
  if (code === 0) return null;
  if (code === 3) return 'partial';
  const modern = (version[0] ?? 0) > 0 || (version[1] ?? 0) >= 17;
  if (modern && code === 10) return 'no_repo';
  if (modern && code === 11) return 'locked';
  if (modern && code === 12) return 'wrong_password';
  // 130 is restic's own answer to SIGINT (128 + 2); the caller knows whether it asked for it.
  if (code === 130) return 'cancelled';
  const text = stderrTail.join('\n');
  for (const [pattern, kind] of TEXT_PATTERNS) if (pattern.test(text)) return kind;
  return 'failed';
}

/** One sentence about what happened to `repoName`, then what to do about it. */
export function describe(kind: ResticErrorKind, command: string, repoName: string, code: number | null, lastLine: string): string {
  switch (kind) {
    case 'missing_binary':
      return 'restic is not installed or could not be found; install it (apt install restic) or set the restic path in Sanad\'s settings.';
    case 'partial':
      return `restic ${command} on "${repoName}" finished but could not read some files; check the log for which ones and run the backup again.`;
    case 'no_repo':
      return `There is no restic repository at the location of "${repoName}"; check the location, or create the repository first.`;
    case 'locked':
      return `The repository "${repoName}" is locked by another restic process; wait for it to finish, or run maintenance to clear a stale lock.`;
    case 'wrong_password':
      return `The passphrase for the repository "${repoName}" was refused; enter the passphrase from the recovery kit.`;
    case 'cancelled':
      return `restic ${command} on "${repoName}" was cancelled.`;
    case 'unreachable':
      return `The repository "${repoName}" could not be reached (${lastLine || 'no answer'}); check that the server is up and the network works, then try again.`;
    case 'failed':
      return `restic ${command} on "${repoName}" failed (exit code ${code ?? 'none'}${lastLine ? `: ${lastLine}` : ''}); see the log for details.`;
  }
}
