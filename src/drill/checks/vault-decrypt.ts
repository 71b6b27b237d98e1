// `vault:decrypt`: the vault key stored in the backup opens the vault in the backup's own database,
// every value of it. "Empty vault" (nothing to open) and "wrong key" (the key names another vault)
// are told apart. The key is read with `restic dump` straight into memory, compared with the
// manifest's sha256, and zeroed after use; it never touches the disk.
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { generationFile, type SnapshotGeneration } from '../../restore/snapshot-generations.js';
import { openValue, VaultDecryptError } from '../../secrets/vault-crypto.js';
import { checkVaultKey, type VaultRow } from '../../secrets/vault.js';
import { say } from '../../contract/said/index.js';
import { resticOutcome } from '../restic-outcome.js';
import { fail, pass, type CheckOutcome } from '../verdict.js';
import { missingFromSnapshot } from './manifest.js';
import { signalOf, type RepoContext } from './repo-context.js';
import { type Manifest } from '../../repository/generation/manifest.js';

export async function checkVaultDecrypt(ctx: RepoContext, g: SnapshotGeneration, manifest: Manifest, storeCopy: string): Promise<CheckOutcome> {
  const item = manifest.items.find((i) => i.kind === 'vault_key');
  if (!item) return fail(say('drill.vault.not_listed', { generation: g.generation }));
  let text: string;
  try {
    text = await ctx.restic.dumpText(ctx.target, g.snapshot_id, generationFile(g, item.path), { maxBytes: 1024, ...signalOf(ctx) });
  } catch (error) {
    if (missingFromSnapshot(error)) return fail(say('drill.vault.missing', { generation: g.generation }));
    return resticOutcome(error, { doing: say('drill.doing_vault_key'), hadBackups: ctx.hadBackups });
  }
  const sha = createHash('sha256').update(text).digest('hex');
  if (Buffer.byteLength(text) !== item.size || sha !== item.sha256) return fail(say('drill.vault.differs', { generation: g.generation }));
  const key = Buffer.from(text.trim(), 'base64');
  try {
    if (key.length !== 32) return fail(say('drill.vault.not_a_key', { generation: g.generation }));
    return openAll(storeCopy, key);
  } finally {
    key.fill(0);
  }
}

function openAll(storeCopy: string, key: Buffer): CheckOutcome {
  // storeCopy passed sqlite:integrity, so its schema is Sanad's own (store/untrusted-store.ts).
  const db = new Database(storeCopy, { readonly: true, fileMustExist: true });
  try {
    db.pragma('trusted_schema = OFF');
    const first = checkVaultKey(db, key);
    if (first === 'wrong_key') return fail(say('drill.vault.wrong_key'));
    if (first === 'empty') return pass(say('drill.vault.empty'));
    const rows = db.prepare<[], VaultRow>('SELECT name, nonce, ciphertext, tag FROM vault ORDER BY name').all();
    for (const row of rows) openValue(key, row.name, row);
    return pass(say('drill.vault.ok', { count: rows.length }));
  } catch (error) {
    if (error instanceof VaultDecryptError) return fail(say('drill.vault.damaged', { name: error.secretName }));
    throw error;
  } finally {
    db.close();
  }
}
