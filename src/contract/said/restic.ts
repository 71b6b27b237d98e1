// restic's failures as Sanad says them: one sentence plus what to do (never a password).
export const RESTIC_WORDINGS = {
  'restic.missing_binary': "restic is not installed or could not be found; install it (apt install restic) or set the restic path in Sanad's settings.",
  'restic.not_restic':
    'The program at {{path}} did not answer "restic version" like restic does; install restic (apt install restic) or set the correct restic path in Sanad\'s settings.',
  'restic.not_at_path':
    "restic is not installed at the configured path {{path}}; install it (apt install restic) or correct the restic path in Sanad's settings.",
  'restic.partial': 'restic {{command}} on "{{repo}}" finished but could not read some files; check the log for which ones and run the backup again.',
  'restic.no_repo': 'There is no restic repository at the location of "{{repo}}"; check the location, or create the repository first.',
  'restic.locked': 'The repository "{{repo}}" is locked by another restic process; wait for it to finish, or run maintenance to clear a stale lock.',
  'restic.wrong_password': 'The passphrase for the repository "{{repo}}" was refused; enter the passphrase from the recovery kit.',
  'restic.wrong_password_given':
    'The passphrase given does not open the repository "{{repo}}" either; check it against the recovery kit of the data dir that made these backups.',
  'restic.cancelled': 'restic {{command}} on "{{repo}}" was cancelled.',
  'restic.unreachable': 'The repository "{{repo}}" could not be reached ({{line}}); check that the server is up and the network works, then try again.',
  'restic.unreachable_silent': 'The repository "{{repo}}" could not be reached (no answer); check that the server is up and the network works, then try again.',
  'restic.failed': 'restic {{command}} on "{{repo}}" failed (exit code {{exit}}: {{line}}); see the log for details.',
  'restic.failed_silent': 'restic {{command}} on "{{repo}}" failed (exit code {{exit}}); see the log for details.',
  'restic.bad_lock': 'The lock {{lock}} in "{{repo}}" could not be read as a restic lock; check that the installed restic works.',
  'restic.no_key_list': 'restic key list on "{{repo}}" printed no key list; check that the installed restic works.',
  'restic.key_not_current': 'The new key for "{{repo}}" was added but restic did not mark it current; list the keys before removing any.',
  'restic.no_summary': 'restic backup on "{{repo}}" ended without a summary, so no snapshot can be trusted; see the log and run the backup again.',
  'restic.dump_too_large': '{{path}} in snapshot {{snapshot}} of "{{repo}}" is larger than {{max}} bytes, so it is not a file Sanad wrote.',
  'restic.ls_no_snapshot': 'restic ls on "{{repo}}" printed no snapshot for {{snapshot}}; check that the installed restic works.',
  'restic.ls_too_many': 'Snapshot {{snapshot}} of "{{repo}}" lists more than {{max}} paths, so it is not a snapshot Sanad made.',
  'restic.no_snapshot_list': 'restic snapshots on "{{repo}}" printed no snapshot list; check that the installed restic works.',
  'restic.copy_not_found':
    'restic copy to "{{repo}}" ended, but the copy of snapshot {{snapshot}} is not listed there; back up again, and check that the installed restic works if it happens again.',
  'restic.step_failed': '{{step}}: {{error}}',
  /** Words that have no code yet (a tool's or the system's own): shown as they are. */
  'said.text': '{{text}}',
} as const;
