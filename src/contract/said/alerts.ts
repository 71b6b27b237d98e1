// The alerts' sentences: what is wrong and what to do (the Overview, the Alerts list, the tray).
export const ALERT_WORDINGS = {
  'alert.keychain_down':
    'The OS keychain is not available ({{detail}}). Sanad keeps its vault key and backup passphrase only there: run it in a desktop session, or on a headless Linux inside `dbus-run-session` with gnome-keyring unlocked, or opt in to a protected secrets file with --secrets-file PATH (docs/security.md says what that risks).',
  'alert.switch_failed':
    'Sanad could not open the restored data in {{path}} ({{error}}), so it went back to {{previous}}; fix the cause and open it again, or run `sanad serve --data-dir {{path}}`.',
  'alert.drill_failed':
    'The {{kind}} drill found damage in the backups: {{checks}} ({{first}}). Run `sanad drill` again to see the whole checklist, then make a new backup.',
  'alert.drill_unverified': 'The {{kind}} drill could not verify the backups: {{checks}} ({{first}}).',
  'alert.copy_prune_failed': 'Deleting the old offsite copy {{name}} from {{destination}} failed: {{error}}',
  'alert.old_key_one':
    'An old backup key is still on {{repos}}, so the previous passphrase still opens it; Sanad removes it after the next backup once the repository answers (or run `sanad passphrase rotate` again).',
  'alert.old_key_other':
    'An old backup key is still on {{repos}}, so the previous passphrase still opens them; Sanad removes it after the next backup once each repository answers (or run `sanad passphrase rotate` again).',
  'alert.model_changed':
    'The file of model "{{model}}" ({{path}}) is no longer the one registered (its size or fingerprint changed, or it was replaced by a link to another file), so backups leave it out; if you replaced it on purpose, remove the model and add it again.',
  'alert.backup_failed': 'The last backup failed: {{error}}',
  'alert.offsite_failed': 'Offsite backup to {{repo}} failed: {{error}}',
  'alert.copy_failed': 'The encrypted offsite copy to {{destination}} failed: {{error}}',
  'alert.maintenance_failed': 'Maintenance of the backup repository "{{repo}}" failed at {{step}}: {{error}}',
  'alert.secrets_in_file':
    'Your keys are in a file ({{path}}), not in the OS keychain: anyone who can read that file as you can open your backups. When a keychain is available (a desktop session), move them there with `sanad secrets move-to-keychain`.',
  'alert.disk_full':
    "The disk holding Sanad's data ({{path}}) is full ({{free_bytes}} free); free some space on it and Sanad carries on by itself, nothing already saved is lost.",
  'alert.disk_full_none':
    "The disk holding Sanad's data ({{path}}) is full (no free space); free some space on it and Sanad carries on by itself, nothing already saved is lost.",
  'alert.disk_low':
    "The disk holding Sanad's data ({{path}}) is nearly full: {{free_bytes}} free, and the next backup needs about {{needed_bytes}}; free some space on it.",
  'alert.disk_low_unknown':
    "The disk holding Sanad's data ({{path}}) is nearly full: little space free, and the next backup needs about {{needed_bytes}}; free some space on it.",
  'alert.repo_full': 'The disk holding the repository "{{repo}}" ({{path}}) is full ({{free_bytes}} free). Free some space on it and back up again.',
  'alert.repo_full_none': 'The disk holding the repository "{{repo}}" ({{path}}) is full (no free space). Free some space on it and back up again.',
} as const;
