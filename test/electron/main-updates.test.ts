// Update checks in the desktop app (stand-in Electron, electron-updater itself) against a local
// generic feed: a download whose SHA-512 does not match the feed is refused and offers nothing; so
// is one whose detached signature is not by a key the app ships (the test gives the app a folder of
// its own with its key, as the package's build/update-keys); a good, signed one is downloaded,
// verified, and only offered ("Restart to update" in the tray and one notification) — it installs
// neither by itself nor at Quit. Only the person's click installs it: the core stops, the AppImage
// is replaced and the new version starts.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { waitFor } from '../harness/api.js';
import { prepareDataDir, tempDir } from '../harness/data-dir.js';
import { launchApp, quitAndWait } from './stand-in/launch.js';

const NEW_VERSION = '99.0.0';
const servers: Server[] = [];
after(() => {
  for (const s of servers) s.close();
});

/** A feed folder served over HTTP on the loopback; `files` can be changed between requests. */
async function feedServer(files: Map<string, Buffer>): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname.slice(1));
    requests.push(name);
    const body = files.get(name);
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address: AddressInfo | string | null = server.address();
  assert.ok(address !== null && typeof address === 'object');
  return { url: `http://127.0.0.1:${address.port}/feed/`, requests };
}

const sha512 = (data: Buffer): string => createHash('sha512').update(data).digest('base64');

function latestLinux(file: string, data: Buffer, claimedSha512: string): Buffer {
  return Buffer.from(
    `version: ${NEW_VERSION}\nfiles:\n  - url: ${file}\n    sha512: ${claimedSha512}\n    size: ${data.length}\npath: ${file}\nsha512: ${claimedSha512}\nreleaseDate: '2026-12-01T00:00:00.000Z'\n`,
  );
}

test('stand-in Electron: an update is downloaded, SHA-512 and signature verified, then only offered; a bad checksum or a foreign signature offers nothing; the click installs', async () => {
  const home = tempDir('sanad-home-');
  const installDir = tempDir('sanad-appimage-');
  // The running "AppImage" (APPIMAGE names it) and the new one, a script that says it ran.
  const current = join(installDir, 'Sanad.AppImage');
  writeFileSync(current, '#!/bin/sh\n# the installed version\n', { mode: 0o755 });
  const ran = join(installDir, 'new-version-ran');
  const next = Buffer.from(`#!/bin/sh\n# Sanad ${NEW_VERSION}\necho "$APPIMAGE_SILENT_INSTALL" > '${ran}'\n`);
  const files = new Map<string, Buffer>([
    ['feed/Sanad-99.0.0.AppImage', next],
    ['feed/latest-linux.yml', latestLinux('Sanad-99.0.0.AppImage', next, sha512(Buffer.from('something else')))],
  ]);
  const feed = await feedServer(files);
  const { dataDir } = await prepareDataDir({ update_feed_url: feed.url });
  // The app's own folder, with the publisher's public key as a package ships it.
  const appDir = tempDir('sanad-app-');
  mkdirSync(join(appDir, 'build', 'update-keys'), { recursive: true });
  const publisher = generateKeyPairSync('ed25519');
  writeFileSync(join(appDir, 'build', 'update-keys', 'publisher.pub'), publisher.publicKey.export({ type: 'spki', format: 'pem' }));
  const signed = (data: Buffer, key = publisher.privateKey): Buffer => Buffer.from(sign(null, Buffer.from(sha512(data)), key).toString('base64'));
  files.set('feed/Sanad-99.0.0.AppImage.sig', signed(next));
  const env = { APPIMAGE: current, SANAD_STANDIN_APP_PATH: appDir };

  // 1. The feed's checksum does not match what it serves: downloaded, refused, nothing offered.
  let app = launchApp({ home, dataDir, args: ['--hidden'], env });
  await waitFor(() => (/sha512 checksum mismatch/i.test(app.logTail(200)) ? true : undefined), 60_000, 'the checksum to be refused').catch((err: unknown) => {
    throw new Error(`${String(err)}\n${app.logTail(200)}`);
  });
  let s = await app.state();
  assert.ok(feed.requests.includes('feed/Sanad-99.0.0.AppImage'), 'the newer version was downloaded');
  assert.ok(!s.tray?.menu.some((i) => /Restart to update/.test(i.label)), 'no restart is offered for a download that failed its check');
  assert.deepEqual(s.notifications, []);
  await quitAndWait(app);

  // 2. The checksum matches, but the signature is someone else's (whoever controls a feed can list
  // any checksum): downloaded, refused, nothing offered.
  files.set('feed/latest-linux.yml', latestLinux('Sanad-99.0.0.AppImage', next, sha512(next)));
  files.set('feed/Sanad-99.0.0.AppImage.sig', signed(next, generateKeyPairSync('ed25519').privateKey));
  app = launchApp({ home, dataDir, args: ['--hidden'], env });
  await waitFor(() => (/not signed by a key this app trusts/.test(app.logTail(200)) ? true : undefined), 60_000, 'the foreign signature to be refused').catch(
    (err: unknown) => {
      throw new Error(`${String(err)}\n${app.logTail(200)}`);
    },
  );
  s = await app.state();
  assert.ok(!s.tray?.menu.some((i) => /Restart to update/.test(i.label)), 'no restart is offered for an update the publisher did not sign');
  assert.deepEqual(s.notifications, []);
  await quitAndWait(app);

  // 3. Signed by the publisher: the next start downloads and verifies it, and only offers it.
  files.set('feed/Sanad-99.0.0.AppImage.sig', signed(next));
  app = launchApp({ home, dataDir, args: ['--hidden'], env });
  s = await app.until((st) => st.tray?.menu.some((i) => i.label === `Restart to update to ${NEW_VERSION}`) === true && st, 'the restart offer', 60_000);
  assert.deepEqual(
    s.notifications.map((n) => n.title),
    [`Sanad ${NEW_VERSION} is ready`],
  );
  assert.ok(
    s.netRequests.some((u) => new URL(u).pathname === '/feed/latest-linux.yml'),
    'electron-updater fetched the feed through net.request',
  );
  assert.match(readFileSync(current, 'utf8'), /the installed version/, 'nothing was installed by itself');
  await quitAndWait(app);
  assert.match(readFileSync(current, 'utf8'), /the installed version/, 'nor at Quit');
  assert.equal(existsSync(ran), false);

  // 4. The person clicks Restart to update: the app stops cleanly, the new version is in place and runs.
  app = launchApp({ home, dataDir, args: ['--hidden'], env });
  await app.until((st) => st.tray?.menu.some((i) => i.label === `Restart to update to ${NEW_VERSION}`) === true, 'the restart offer again', 60_000);
  await app.send({ op: 'tray-click', label: `Restart to update to ${NEW_VERSION}` });
  assert.equal(await app.exited, 0, `the app exited cleanly to update\n${app.logTail()}`);
  assert.deepEqual(app.violations, []);
  assert.equal(readFileSync(current, 'utf8'), next.toString(), 'the AppImage is the new version');
  await waitFor(() => (existsSync(ran) ? true : undefined), 10_000, 'the new version to start');
  assert.equal(readFileSync(ran, 'utf8').trim(), 'true', 'started as an installed update (APPIMAGE_SILENT_INSTALL)');
});
