// The restic fetch for desktop builds (scripts/fetch-restic.mjs → build/restic-release.ts)
// against a release served from loopback, because restic's real GitHub releases cannot be reached
// here: the archives are fake restic binaries packed like the real ones (bz2, zip), and the checks
// are the real ones: only a pinned SHA-256 is accepted, nothing is written for a refused archive.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import {
  binaryPath,
  checkArchive,
  fetchAsset,
  parsePinned,
  parseSha256Sums,
  pinFromSums,
  resticAssets,
  RESTIC_VERSION,
  type PinnedChecksums,
} from '../../build/restic-release.js';
import { tempDir } from '../harness/data-dir.js';

const V = RESTIC_VERSION;
const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
const files = new Map<string, Buffer>();
let server: Server | null = null;
after(() => server?.close());

async function serve(): Promise<string> {
  server = createServer((req, res) => {
    const body = files.get(req.url ?? '');
    if (body === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  const addr = server.address();
  assert.ok(addr !== null && typeof addr === 'object');
  return `http://127.0.0.1:${addr.port}`;
}

function packBz2(content: Buffer): Buffer {
  const r = spawnSync('bzip2', ['-c'], { input: content });
  assert.equal(r.status, 0);
  return r.stdout;
}

function packZip(member: string, content: Buffer): Buffer {
  const dir = tempDir('sanad-zip-');
  writeFileSync(join(dir, member), content);
  const r = spawnSync('zip', ['-q', '-j', join(dir, 'a.zip'), join(dir, member)]);
  assert.equal(r.status, 0, r.stderr.toString());
  return readFileSync(join(dir, 'a.zip'));
}

test('restic fetch (simulated download): pinned archives install, tampered or unpinned ones are refused', async () => {
  const base = await serve();
  const assets = resticAssets(V);
  assert.deepEqual(
    assets.map((a) => a.file),
    [
      `restic_${V}_linux_amd64.bz2`,
      `restic_${V}_linux_arm64.bz2`,
      `restic_${V}_darwin_amd64.bz2`,
      `restic_${V}_darwin_arm64.bz2`,
      `restic_${V}_windows_amd64.zip`,
    ],
  );
  const binaries = new Map<string, Buffer>();
  for (const a of assets) {
    const binary = Buffer.from(`#!/bin/sh\necho "restic ${V} fake for ${a.os}/${a.arch}"\n`);
    binaries.set(a.file, binary);
    files.set(`/v${V}/${a.file}`, a.format === 'bz2' ? packBz2(binary) : packZip(a.file.replace(/\.zip$/, '.exe'), binary));
  }
  // --pin reads the release's SHA256SUMS (here made from the served files).
  const sums = assets.map((a) => `${sha(files.get(`/v${V}/${a.file}`) ?? Buffer.alloc(0))}  ${a.file}`).join('\n') + '\nabc  not-a-line\n';
  const pinned = parsePinned(JSON.parse(JSON.stringify(pinFromSums(V, sums))));
  assert.equal(Object.keys(pinned.sha256).length, 5);

  const root = tempDir('sanad-restic-build-');
  for (const a of assets) {
    const installed = await fetchAsset(a, { version: V, pinned, root, base });
    assert.equal(installed, binaryPath(root, a));
    assert.equal(installed, join(root, a.os, a.arch, a.os === 'win' ? 'restic.exe' : 'restic'));
    assert.deepEqual(readFileSync(installed), binaries.get(a.file), a.file);
    assert.equal(statSync(installed).mode & 0o111, 0o111, `${a.file} is executable`);
  }

  // A tampered archive (one byte of the served file changed) is refused and not installed.
  const linux = assets[0];
  assert.ok(linux);
  const good = files.get(`/v${V}/${linux.file}`) ?? Buffer.alloc(0);
  const bad = Buffer.from(good);
  bad[bad.length - 1] = (bad[bad.length - 1] ?? 0) ^ 0xff;
  files.set(`/v${V}/${linux.file}`, bad);
  const fresh = tempDir('sanad-restic-build-');
  await assert.rejects(fetchAsset(linux, { version: V, pinned, root: fresh, base }), /Refusing .* has sha256 [0-9a-f]{64}, but [0-9a-f]{64} is pinned/);
  assert.equal(existsSync(binaryPath(fresh, linux)), false);

  // Unpinned: a table without the file, or for another version, refuses even a genuine archive.
  files.set(`/v${V}/${linux.file}`, good);
  const without: PinnedChecksums = { version: V, sha256: Object.fromEntries(Object.entries(pinned.sha256).filter(([k]) => k !== linux.file)) };
  await assert.rejects(fetchAsset(linux, { version: V, pinned: without, root: fresh, base }), /no pinned checksum/);
  await assert.rejects(
    fetchAsset(linux, { version: V, pinned: { ...pinned, version: '0.17.3' }, root: fresh, base }),
    /pinned checksums are for restic 0\.17\.3/,
  );
  assert.equal(existsSync(binaryPath(fresh, linux)), false);
  // A missing file on the server is a clear error.
  files.delete(`/v${V}/${linux.file}`);
  await assert.rejects(fetchAsset(linux, { version: V, pinned, root: fresh, base }), /HTTP 404/);
});

test('pinning: SHA256SUMS parsing, a missing asset refuses to pin, a bad table is rejected', () => {
  const sums = parseSha256Sums(`${'A'.repeat(64)}  restic_x.bz2\n${'b'.repeat(64)} *restic_y.zip\r\ngarbage\n`);
  assert.deepEqual(
    [...sums],
    [
      ['restic_x.bz2', 'a'.repeat(64)],
      ['restic_y.zip', 'b'.repeat(64)],
    ],
  );
  assert.throws(() => pinFromSums(V, `${'a'.repeat(64)}  restic_${V}_linux_amd64.bz2\n`), /no line for restic_.*_linux_arm64\.bz2/);
  assert.throws(() => parsePinned({ version: V, sha256: { 'restic.bz2': 'not-hex' } }), /checksums\.json/);
  assert.throws(() => parsePinned({ sha256: {} }), /checksums\.json/);
  const asset = resticAssets(V)[0];
  assert.ok(asset);
  const bytes = Buffer.from('archive');
  assert.deepEqual(checkArchive(bytes, asset, V, { version: V, sha256: { [asset.file]: sha(bytes) } }), { ok: true, sha256: sha(bytes) });
});

test('the checked-in checksum table is well formed and for the pinned restic version', () => {
  const table: unknown = JSON.parse(readFileSync(new URL('../../../build/restic/checksums.json', import.meta.url), 'utf8'));
  const pinned = parsePinned(table);
  assert.equal(pinned.version, V);
  const known = new Set(resticAssets(V).map((a) => a.file));
  for (const file of Object.keys(pinned.sha256)) assert.ok(known.has(file), `${file} is one of the shipped assets`);
});
