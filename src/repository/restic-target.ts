// From a repository row (plus its secret in the vault and the passphrase) to what restic needs.
// Credentials travel in the child's environment: S3 keys as AWS_* variables, a REST password
// inside the repository URL, which the restic runner then passes as RESTIC_REPOSITORY, not argv.
import type { Vault } from '../secrets/vault.js';
import type { ResticRepo } from './restic/repo.js';
import { secretName, type Repository } from './repositories.js';

export function toResticRepo(repo: Repository, vault: Vault, passphrase: string): ResticRepo {
  const base = { name: repo.name, password: passphrase, ...(repo.options.cacert ? { cacert: repo.options.cacert } : {}) };
  const secret = vault.get(secretName(repo.name));
  switch (repo.type) {
    case 'local':
    case 'folder':
      return { ...base, url: repo.location };
    case 's3':
      return {
        ...base,
        url: `s3:${repo.location}`,
        env: {
          AWS_ACCESS_KEY_ID: repo.options.access_key_id ?? '',
          AWS_SECRET_ACCESS_KEY: secret ?? '',
          ...(repo.options.region ? { AWS_DEFAULT_REGION: repo.options.region } : {}),
        },
      };
    case 'rest': {
      if (!repo.options.user && !secret) return { ...base, url: `rest:${repo.location}` };
      const url = new URL(repo.location);
      url.username = encodeURIComponent(repo.options.user ?? '');
      url.password = encodeURIComponent(secret ?? '');
      return { ...base, url: `rest:${url.toString().replace(/\/$/, '')}` };
    }
    case 'rclone':
      return { ...base, url: `rclone:${repo.location}`, ...(repo.options.rclone_config ? { rcloneConfig: repo.options.rclone_config } : {}) };
  }
}
