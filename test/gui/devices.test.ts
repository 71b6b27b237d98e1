// Devices on the network in real Chromium against a real `sanad serve --lan`: Settings shows the
// switch on with the address and the fingerprint the listener really serves; switching it off on
// screen closes the port, on again opens it. The Clients screen's pairing code comes with the
// address, the fingerprint and a QR code; a device that pairs over TLS with that fingerprint
// appears with the address it called from. Screenshots: devices-settings-en/ar, devices-pair-en/ar.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, X509Certificate } from 'node:crypto';
import { Agent, fetch as undiciFetch } from 'undici';
import { field, str } from '../harness/api.js';
import { freePort } from '../harness/ports.js';
import { prepareDataDir } from '../harness/data-dir.js';
import { startServiceProcess, type ServiceProcess } from '../harness/service-process.js';
import { openGui, type Gui } from './browser.js';

let service: ServiceProcess | null = null;
let gui: Gui | null = null;

before(async () => {
  const prepared = await prepareDataDir();
  service = await startServiceProcess(prepared.dataDir, prepared.adminToken, {}, ['--lan', '--lan-port', String(await freePort())]);
  gui = await openGui(service.loginUrl);
});
after(async () => {
  await gui?.close();
  await service?.kill();
});

function ready(): { service: ServiceProcess; gui: Gui } {
  assert.ok(service && gui, 'the service and the browser started');
  return { service, gui };
}

async function lanStatus(service: ServiceProcess): Promise<unknown> {
  const res = await service.api.get('/admin/lan');
  assert.equal(res.status, 200, res.text);
  return res.body;
}

test('Settings: the switch, the address and the fingerprint the listener serves; off closes the port, on opens it', async () => {
  const { service, gui } = ready();
  const { page } = gui;
  const lan = await lanStatus(service);
  const port = Number(field(lan, 'port'));
  const pem = str(lan, 'certificate_pem');
  const served = createHash('sha256').update(new X509Certificate(pem).raw).digest('hex');
  await page.getByTestId('nav-settings').click();
  const sw = page.getByTestId('lan-switch');
  await sw.waitFor();
  assert.equal(await sw.isChecked(), true, '--lan turned it on');
  const shown = ((await page.getByTestId('lan-fingerprint').textContent()) ?? '').replace(/\s/g, '');
  assert.equal(shown, served, 'the screen shows the fingerprint of the certificate the listener serves');
  assert.match((await page.getByTestId('lan-url').textContent()) ?? '', /^https:\/\/.+:\d+$/);
  await page.getByTestId('lan-fingerprint').scrollIntoViewIfNeeded();
  await gui.screenshot('devices-settings-en');

  const trusting = new Agent({ connect: { ca: pem } });
  // A click, then the state the core answers: the switch is controlled (it shows the choice while
  // the PATCH is on its way), so Playwright's check()/uncheck() can read it a render too early.
  await sw.click();
  await page.getByTestId('lan-off').waitFor();
  assert.equal(field(await lanStatus(service), 'enabled'), false);
  await assert.rejects(undiciFetch(`https://127.0.0.1:${port}/v1/tls/certificate`, { dispatcher: trusting }), 'the port is closed');
  const settings = await service.api.get('/admin/settings');
  assert.equal(field(settings.body, 'lan_enabled'), false, 'the switch is kept');

  // On again, on the port the settings keep (the run's --lan-port no longer applies): set it first.
  const patched = await service.api.request('PATCH', '/admin/settings', { lan_port: port });
  assert.equal(patched.status, 200, patched.text);
  await page.reload();
  await page.getByTestId('lan-switch').click();
  await page.getByTestId('lan-on').waitFor();
  const back = await undiciFetch(`https://127.0.0.1:${port}/v1/tls/certificate`, { dispatcher: trusting });
  assert.equal(back.status, 200, 'the same certificate serves again');

  await page.getByTestId('language-switch').click();
  await page.getByTestId('lan-on').waitFor();
  assert.match((await page.locator('#settings-lan').textContent()) ?? '', /الأجهزة على هذه الشبكة/);
  await page.getByTestId('lan-fingerprint').scrollIntoViewIfNeeded();
  await gui.screenshot('devices-settings-ar');
  await page.getByTestId('language-switch').click();
});

test('Clients: the pairing code comes with the address, fingerprint and QR; a device that pins it pairs and shows its address', async () => {
  const { service, gui } = ready();
  const { page } = gui;
  await page.getByTestId('nav-clients').click();
  await page.getByTestId('pair-make').click();
  const code = ((await page.getByTestId('pairing-code').textContent()) ?? '').trim();
  const fingerprint = ((await page.getByTestId('pairing-fingerprint').textContent()) ?? '').replace(/\s/g, '');
  const url = (await page.getByTestId('pairing-lan-url').textContent()) ?? '';
  const qr = (await page.getByTestId('pairing-qr').getAttribute('data-qr-text')) ?? '';
  const link = new URL(qr);
  assert.equal(link.searchParams.get('code'), code);
  assert.equal(link.searchParams.get('fp'), fingerprint);
  assert.equal(link.searchParams.get('url'), url);
  await gui.screenshot('devices-pair-en');

  // The device: fetch the certificate, compare with the screen, then pair trusting only it.
  const port = new URL(url).port;
  const certificate = await service.api.get('/v1/tls/certificate');
  const seen = createHash('sha256').update(new X509Certificate(certificate.text).raw).digest('hex');
  assert.equal(seen, fingerprint);
  const paired = await undiciFetch(`https://127.0.0.1:${port}/v1/pair`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code, client_name: 'e2e-tablet' }),
    dispatcher: new Agent({ connect: { ca: certificate.text } }),
  });
  assert.equal(paired.status, 201);
  const row = page.getByTestId('client-row-e2e-tablet');
  await row.waitFor();
  assert.match((await row.getByTestId('client-last-use').textContent()) ?? '', /from 127\.0\.0\.1/);

  await page.getByTestId('language-switch').click();
  await page.getByTestId('pair-make').click();
  await page.getByTestId('pairing-qr').waitFor();
  await gui.screenshot('devices-pair-ar');
  await page.getByTestId('language-switch').click();
});
