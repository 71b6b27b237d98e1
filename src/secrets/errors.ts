// The errors a user meets about secrets: each message is one sentence plus what to do, and never
// contains a secret value.

export class KeychainUnavailableError extends Error {
  constructor(readonly detail: string) {
    super(
      `The OS keychain is not available (${detail}). Sanad keeps its vault key and backup passphrase only there: ` +
        'run it in a desktop session, or on a headless Linux inside `dbus-run-session` with gnome-keyring unlocked, ' +
        'or opt in to a protected secrets file with --secrets-file PATH (docs/security.md says what that risks).',
    );
    this.name = 'KeychainUnavailableError';
  }
}

export class MissingSecretError extends Error {
  constructor(what: string, where: string) {
    super(
      `The ${what} of this data dir is missing from ${where}, so data protected by it cannot be read. ` +
        'Sanad will not make a new one over existing data: put the old one back from your recovery kit ' +
        '(or restore the keychain), then start again.',
    );
    this.name = 'MissingSecretError';
  }
}

export class SecretsFileUnsafeError extends Error {
  constructor(path: string, why: string) {
    super(
      `The secrets file ${path} is refused: ${why}. Create it with \`install -m 600 /dev/null ${path}\` in a folder only you can open (mode 700), as the user who runs Sanad.`,
    );
    this.name = 'SecretsFileUnsafeError';
  }
}

/** A data dir that never had master secrets: nothing was ever protected, so this is no loss. */
export class NoSecretsYetError extends Error {
  constructor() {
    super(
      'This data dir has no master secrets yet, so there is nothing to back up or read with them; start `sanad serve` on it once (or run `sanad backup now`, which makes them).',
    );
    this.name = 'NoSecretsYetError';
  }
}
