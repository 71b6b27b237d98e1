// What Sanad says about a backup target's own state (a folder target's disk), before restic runs.
export const TARGET_WORDINGS = {
  'folder.not_connected':
    'The disk of "{{repo}}" is not connected: nothing is mounted at {{mount}}. Connect the disk and back up again; nothing was written to {{mount}}.',
  'folder.gone':
    'The backups of "{{repo}}" are not in {{path}} any more (its restic repository is missing). Connect the disk that holds them or correct the folder; Sanad does not start a new repository where one was.',
  'probe.delete_ignored':
    '"{{repo}}" accepted a write, but the delete did not take effect, so maintenance could not remove old backups there; check the storage\'s permissions (it must allow deletes) and test again.',
  'copy.no_local': 'There is no backup on this computer to copy yet; back up first, then copy it to your offsite targets.',
  'copy.no_targets': 'There is no offsite target to copy to; add one on the Offsite screen (or with `sanad repo add`).',
  'copy.up_to_date': '"{{repo}}" already has the newest backup (generation {{generation}}).',
  'copy.copied': 'The newest backup (generation {{generation}}) was copied to "{{repo}}".',
} as const;
