// Typed restic failures. Exit codes are authoritative where restic defines them (3 since 0.9,
// 10/11/12 since 0.17); older releases (Debian's 0.14) say 1 for everything, so their stderr text
// is classified instead. Messages are one sentence plus what to do, and never contain a password.
import type { Said, Spoken } from '../../contract/said.js';
import { say } from '../../contract/said/index.js';

export type ResticErrorKind = 'missing_binary' | 'partial' | 'no_repo' | 'locked' | 'wrong_password' | 'unreachable' | 'failed' | 'cancelled';

export class ResticError extends Error {
  override readonly name = 'ResticError';
  /** The message as a code and its params, for a GUI that words it in the person's language. */
  readonly said: Said;
  constructor(
    readonly kind: ResticErrorKind,
    spoken: Spoken,
    readonly exitCode: number | null = null,
    readonly stderrTail: string[] = [],
  ) {
    super(spoken.detail);
    this.said = { code: spoken.code, params: spoken.params };
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
export function describe(kind: ResticErrorKind, command: string, repoName: string, code: number | null, lastLine: string): Spoken {
  const repo = repoName;
  switch (kind) {
    case 'missing_binary':
      return say('restic.missing_binary');
    case 'partial':
      return say('restic.partial', { command, repo });
    case 'no_repo':
      return say('restic.no_repo', { repo });
    case 'locked':
      return say('restic.locked', { repo });
    case 'wrong_password':
      return say('restic.wrong_password', { repo });
    case 'cancelled':
      return say('restic.cancelled', { command, repo });
    case 'unreachable':
      return lastLine ? say('restic.unreachable', { repo, line: lastLine }) : say('restic.unreachable_silent', { repo });
    case 'failed': {
      const exit = code === null ? 'none' : String(code);
      return lastLine ? say('restic.failed', { command, repo, exit, line: lastLine }) : say('restic.failed_silent', { command, repo, exit });
    }
  }
}
