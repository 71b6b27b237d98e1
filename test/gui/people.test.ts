// The Clients, Offsite targets and Models screens in real Chromium against a real `sanad serve`:
// a pairing code made on screen really pairs a client (POST /v1/pair), which then appears in the
// list by itself and is revoked from the screen (its token stops working); a REST offsite target
// on a password-protected `rclone serve restic` is added, tested with the real write-and-delete
// probe (which only passes if the password reached restic) and edited, and its password is never in
// the page; the compressed offsite copy is configured; a second model is added by path and
// removed, and the file stays. Every step is checked through the API, not only on screen.
// Screenshots: clients-en/ar, offsite-en/ar, models-en/ar.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tinyModelPath } from '../fixtures/tiny-model.js';
import { field, str } from '../harness/api.js';
import { prepareDataDir, tempDir } from '../harness/data-dir.js';
import { startServiceProcess, type ServiceProcess } from '../harness/service-process.js';
import { freePort, RestServer } from '../backup/run/rest-server.js';
import { openGui, type Gui } from './browser.js';

let service: ServiceProcess | null = null;
let gui: Gui | null = null;
let rest: RestServer | null = null;
const password = `REST-PASSWORD-gui-${randomBytes(8).toString('hex')}`;

before(async () => {
  const prepared = await prepareDataDir();
  service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  gui = await openGui(service.loginUrl);
});
after(async () => {
  await gui?.close();
  await service?.kill();
  await rest?.stop();
});

function ready(): { service: ServiceProcess; gui: Gui } {
  assert.ok(service && gui, 'the service and the browser started');
  return { service, gui };
}

function list(body: unknown): unknown[] {
  const data = field(body, 'data');
  assert.ok(Array.isArray(data));
  return data;
}

test('Clients: a code made on screen pairs a real client, which appears by itself and is revoked from the screen', async () => {
  const { service, gui } = ready();
  const { page } = gui;
  await page.getByTestId('nav-clients').click();
  await page.getByTestId('pair-scopes-tasks:read').check();
  await page.getByTestId('pair-make').click();
  const code = (await page.getByTestId('pairing-code').textContent())?.trim() ?? '';
  assert.match(code, /^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/, 'a code is shown');
  assert.match(
    (await page.getByTestId('pairing-countdown').textContent()) ?? '',
    /^Expires in (10:00|9:5\d)$/,
    'its countdown runs from the chosen 10 minutes',
  );

  const paired = await service.api.withToken(null).post('/v1/pair', { code, client_name: 'e2e-phone' });
  assert.equal(paired.status, 201, paired.text);
  const token = str(paired.body, 'token');
  const clientId = str(paired.body, 'client_id');
  assert.deepEqual(field(paired.body, 'scopes'), ['models:read', 'responses:write', 'tasks:read'], 'the scopes chosen on screen');
  // No reload, no click: the clients.changed event refreshes the list.
  const row = page.getByTestId('client-row-e2e-phone');
  await row.waitFor({ timeout: 10_000 });
  assert.equal(await row.getAttribute('data-client-id'), clientId);
  assert.match((await row.textContent()) ?? '', /tasks:read/);
  const stored = list((await service.api.get('/admin/clients')).body).find((c) => field(c, 'id') === clientId);
  assert.ok(stored, 'the paired client is stored');
  assert.equal(field(stored, 'revoked_at'), null);
  assert.equal((await service.api.withToken(token).get('/v1/models')).status, 200, 'its token works');
  await gui.screenshot('clients-en');

  await page.getByTestId('client-revoke-e2e-phone').click();
  assert.match((await page.getByRole('alertdialog').textContent()) ?? '', /stops working at once/);
  await page.getByTestId('client-revoke-e2e-phone-confirm').click();
  await row
    .getByTestId('client-state')
    .getByText(/^Revoked/)
    .waitFor({ timeout: 10_000 });
  assert.equal((await service.api.withToken(token).get('/v1/models')).status, 401, 'the revoked token no longer works');
  const revoked = list((await service.api.get('/admin/clients')).body).find((c) => field(c, 'id') === clientId);
  assert.equal(typeof field(revoked, 'revoked_at'), 'number');
  const again = await service.api.withToken(null).post('/v1/pair', { code, client_name: 'second-use' });
  assert.equal(again.status, 403, 'the code worked once');
});

test('Offsite: add a REST target, test it for real, edit it; the password is never in the page', async () => {
  const { service, gui } = ready();
  const { page } = gui;
  rest = new RestServer(tempDir('sanad-gui-rest-'), await freePort(), ['--user', 'sanad', '--pass', password]);
  await rest.start();
  await page.getByTestId('nav-offsite').click();
  await page.getByTestId('target-type').selectOption('rest');
  await page.getByTestId('target-name').fill('nas');

  // A required field left blank is caught by the form, in words, with the keyboard put on it:
  // not by the browser's bubble, and nothing is sent.
  const before = list((await service.api.get('/admin/repositories')).body).length;
  await page.getByTestId('target-submit').click();
  const blankNote = page.getByTestId('field-location').locator('.field-error');
  await blankNote.waitFor();
  assert.match((await blankNote.textContent()) ?? '', /^Fill in “.+” first\.$/);
  assert.equal(await page.evaluate("document.activeElement ? document.activeElement.getAttribute('data-testid') : null"), 'target-location');
  assert.equal(list((await service.api.get('/admin/repositories')).body).length, before, 'a blank field sends nothing');

  // A server validation error lands under the field it is about.
  await page.getByTestId('target-location').fill('ftp://127.0.0.1/');
  await page.getByTestId('target-submit').click();
  await page.getByTestId('field-location').locator('.field-error').waitFor();
  assert.match((await page.getByTestId('field-location').locator('.field-error').textContent()) ?? '', /http:\/\/ or https:\/\//);
  assert.equal(await page.getByTestId('target-location').getAttribute('aria-invalid'), 'true');

  await page.getByTestId('target-location').fill(rest.url);
  await page.getByTestId('target-user').fill('sanad');
  await page.getByTestId('target-secret').fill(password);
  await page.getByTestId('target-submit').click();
  const card = page.getByTestId('target-card-nas');
  await card.waitFor({ timeout: 10_000 });
  assert.equal(await card.getByTestId('target-secret-state').textContent(), 'Stored in the vault');
  assert.ok(!(await page.content()).includes(password), 'the page does not hold the password after the add');

  await page.getByTestId('target-test-nas').click();
  const result = page.getByTestId('target-test-result-nas').locator('[data-result]');
  await result.waitFor({ timeout: 60_000 });
  assert.equal(await result.getAttribute('data-result'), 'ok', (await result.textContent()) ?? '');
  assert.match((await result.textContent()) ?? '', /It works: Sanad wrote a small test file to “nas” and deleted it/);
  await gui.screenshot('offsite-en');

  const repos = await service.api.get('/admin/repositories');
  const nas = list(repos.body).find((r) => field(r, 'name') === 'nas');
  assert.ok(nas, 'the target is stored');
  assert.equal(field(nas, 'type'), 'rest');
  assert.equal(field(nas, 'location'), rest.url.replace(/\/$/, ''));
  assert.equal(field(nas, 'options', 'user'), 'sanad');
  assert.equal(field(nas, 'has_secret'), true);
  assert.ok(!repos.text.includes(password), 'the API never returns the password');

  // Edit: pause it; the blank password field keeps the stored one.
  await page.getByTestId('target-edit-nas').click();
  assert.equal(await card.getByTestId('target-secret').inputValue(), '', 'an edit starts with the secret blank');
  await card.getByTestId('target-enabled').uncheck();
  await card.getByTestId('target-submit').click();
  await card.getByTestId('target-enabled-state').getByText('Paused').waitFor({ timeout: 10_000 });
  const edited = list((await service.api.get('/admin/repositories')).body).find((r) => field(r, 'name') === 'nas');
  assert.equal(field(edited, 'enabled'), false);
  assert.equal(field(edited, 'has_secret'), true, 'the stored password was kept');
  const probe = await service.api.post('/admin/repositories/nas/test');
  assert.equal(field(probe.body, 'ok'), true, `the kept password still opens the server: ${probe.text}`);
  assert.ok(!(await page.content()).includes(password), 'the page never holds the password');

  // The compressed offsite copy: a refused destination is explained under its field, then saved.
  await page.getByTestId('copy-destination').fill(':s3:bucket');
  await page.getByTestId('copy-save').click();
  await page
    .getByTestId('offsite-copy')
    .locator('.field-error')
    .getByText(/inline backends/)
    .waitFor();
  // A remote rclone does not have configured is refused where it is typed, not at the next backup.
  await page.getByTestId('copy-destination').fill('backup:sanad-copies');
  await page.getByTestId('copy-save').click();
  await page
    .getByTestId('offsite-copy')
    .locator('.field-error')
    .getByText(/no rclone remote named "backup"/)
    .waitFor();
  const rcloneConf = join(tempDir('sanad-rclone-conf-'), 'rclone.conf');
  writeFileSync(rcloneConf, '[backup]\ntype = local\n');
  await page.getByTestId('copy-config').fill(rcloneConf);
  // A number of copies the setting cannot hold is refused by the form, saying what it takes.
  await page.getByTestId('copy-keep').fill('2.5');
  await page.getByTestId('copy-save').click();
  await page.getByTestId('offsite-copy').locator('.field-error').getByText('Give a whole number of copies from 0 to 1,000 (0 keeps them all).').waitFor();
  assert.equal(await page.evaluate("document.activeElement ? document.activeElement.getAttribute('data-testid') : null"), 'copy-keep');
  await page.getByTestId('copy-keep').fill('3');
  await page.getByTestId('copy-save').click();
  await page
    .getByTestId('copy-state')
    .getByText(/backup:sanad-copies/)
    .waitFor({ timeout: 10_000 });
  const settings = (await service.api.get('/admin/settings')).body;
  assert.equal(field(settings, 'offsite_copy_destination'), 'backup:sanad-copies');
  assert.equal(field(settings, 'offsite_copy_keep'), 3);
});

test('Models: add a second model by path, see its fingerprint, remove it; the file stays', async () => {
  const { service, gui } = ready();
  const { page } = gui;
  const path = await tinyModelPath(2);
  const sha256 = createHash('sha256').update(readFileSync(path)).digest('hex');
  await page.getByTestId('nav-models').click();
  await page.getByTestId('model-row-tiny').waitFor();

  await page.getByTestId('model-path').fill(`${path}.nowhere`);
  await page.getByTestId('model-add').click();
  await page
    .locator('.field-error')
    .getByText(/no model file/i)
    .waitFor({ timeout: 10_000 });

  await page.getByTestId('model-path').fill(path);
  await page.getByTestId('model-id').fill('tiny-two');
  await page.getByTestId('model-add').click();
  const row = page.getByTestId('model-row-tiny-two');
  await row.waitFor({ timeout: 30_000 });
  assert.equal(await row.locator('[title]').first().getAttribute('title'), sha256, 'the full fingerprint is in the tooltip');
  assert.match((await row.getByTestId('model-status').textContent()) ?? '', /Available/);
  const added = await service.api.get('/v1/models/tiny-two');
  assert.equal(added.status, 200);
  assert.equal(field(added.body, 'sha256'), sha256);
  assert.equal(field(added.body, 'path'), path);
  assert.equal(field(added.body, 'status'), 'available');
  await gui.screenshot('models-en');

  await page.getByTestId('model-remove-tiny-two').click();
  assert.match((await page.getByRole('alertdialog').textContent()) ?? '', /The file itself is not deleted/);
  await page.getByTestId('model-remove-tiny-two-confirm').click();
  await row.waitFor({ state: 'detached', timeout: 10_000 });
  assert.equal((await service.api.get('/v1/models/tiny-two')).status, 404, 'the model is no longer registered');
  assert.ok(existsSync(path), 'the file itself is still there');
  assert.equal((await service.api.get('/v1/models/tiny')).status, 200, 'the other model is untouched');
});

test('the three screens in Arabic are right-to-left (screenshots)', async () => {
  const { gui } = ready();
  const { page } = gui;
  await page.getByTestId('language-switch').click();
  assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
  await page.getByTestId('nav-models').click();
  await page.getByRole('heading', { name: 'النماذج', exact: true }).waitFor();
  await page.getByTestId('model-row-tiny').waitFor();
  await gui.screenshot('models-ar');
  await page.getByTestId('nav-clients').click();
  await page.getByTestId('pair-make').click();
  await page
    .getByTestId('pairing-countdown')
    .getByText(/^ينتهي خلال/)
    .waitFor();
  await gui.screenshot('clients-ar');
  await page.getByTestId('nav-offsite').click();
  await page.getByTestId('target-card-nas').waitFor();
  await page.getByTestId('copy-state').waitFor();
  await gui.screenshot('offsite-ar');
  assert.ok(!(await page.content()).includes(password), 'no page holds the offsite password');
});
