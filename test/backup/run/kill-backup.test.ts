// SIGKILL of `sanad backup now` while restic is uploading: the next backup succeeds, no half
// generation is listed, and no vault key is left lying in staging.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listGenerations } from '../../../src/backup/generation/index.js';
import { waitFor } from '../../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../../harness/appliance.js';
import { tempDir } from '../../harness/data-dir.js';
import { BIN } from '../../cli/run-cli.js';

let t: TestAppliance | null = null;
after(async () => t?.close());

test('a backup killed mid-upload leaves nothing half-done; the next one succeeds', async () => {
  t = await startTestAppliance();
  // Enough bytes that restic is still uploading when the kill lands.
  const model = t.appliance.ctx.writer.prepare<[], { path: string }>("SELECT path FROM models WHERE id = 'tiny'").get()?.path ?? '';
  const big = join(tempDir(), 'big.gguf');
  writeFileSync(big, Buffer.concat([readFileSync(model), randomBytes(160 * 1024 * 1024)]));
  assert.equal((await t.api.post('/admin/models', { path: big, id: 'big' })).status, 201);
  // The CLI must run the backup itself, as on a machine where no service runs: beside a running
  // service it would only ask the service (and its SIGKILL would not stop the backup).
  const dataDir = t.dataDir;
  await t.close();
  t = null;

  const child = spawn(process.execPath, [BIN, 'backup', 'now', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  // The upload has begun once restic's progress lines arrive.
  await waitFor(() => /local: \d+%/.test(stderr), 60_000, 'restic upload progress');
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await gone;
  // restic itself was a child of the CLI: give it a moment to notice and die, as an orphan would.
  await new Promise((r) => setTimeout(r, 500));

  const again = spawn(process.execPath, [BIN, 'backup', 'now', '--json', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  again.stdout.on('data', (d: Buffer) => (out += d.toString()));
  again.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((r) => again.once('close', r));
  assert.equal(code, 0, err);
  const staging = join(dataDir, 'backups', 'staging');
  assert.ok(!readdirSync(staging).some((n) => n.endsWith('.partial')), 'no half generation');
  const generations = await listGenerations(dataDir);
  assert.ok(generations.length >= 1 && generations.length <= 2);
  for (const g of generations) assert.ok(!existsSync(join(g.dir, 'vault.key')), `no vault key left in ${g.dir}`);
  const parsed: unknown = JSON.parse(out);
  assert.ok(
    typeof parsed === 'object' && parsed !== null && 'generation' in parsed && parsed.generation === generations[0]?.epoch,
    'the newest generation listed is the one just made',
  );
});
