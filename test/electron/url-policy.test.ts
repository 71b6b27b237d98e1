// The window's URL allow-list, its CSP and permissions, and its hardening flags: what keeps the GUI
// on the core's own origin and everything else in the user's browser or nowhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GUI_CSP } from '../../src/service/routes/gui.js';
import { NOTHING_CSP, permissionAllowed, withCsp } from '../../electron/logic/csp.js';
import { externalUrlVerdict, isCoreUrl, isLocalHost, navigationAllowed, originOf } from '../../electron/logic/url-policy.js';
import { mainWindowOptions } from '../../electron/logic/window-options.js';

const CORE = originOf('http://127.0.0.1:41234');

test('external links: only https to a public host, without credentials, never the core', () => {
  const allowed = [
    'https://restic.readthedocs.io/en/stable/',
    'https://dash.cloudflare.com/?to=/:account/r2',
    'https://example.com:8443/path?q=1#frag',
    'https://[2606:4700::1111]/',
    'https://8.8.8.8/',
  ];
  for (const url of allowed) {
    const v = externalUrlVerdict(url, CORE);
    assert.ok(v.allowed, url);
    assert.equal(v.url, new URL(url).href);
  }
  const refused: Array<[string, RegExp]> = [
    ['http://example.com/', /scheme http:/],
    ['file:///etc/passwd', /scheme file:/],
    ['javascript:alert(1)', /scheme javascript:/],
    ['data:text/html,<script>alert(1)</script>', /scheme data:/],
    ['blob:https://example.com/0b1f', /scheme blob:/],
    ['vbscript:msgbox', /scheme vbscript:/],
    ['ms-settings:privacy', /scheme ms-settings:/],
    ['smb://server/share', /scheme smb:/],
    ['https://user:pw@example.com/', /credentials/],
    ['https://token@example.com/', /credentials/],
    ['https://localhost/', /local/],
    ['https://app.localhost/', /local/],
    ['https://127.0.0.1:41234/', /local/],
    ['https://127.1/', /local/],
    ['https://0x7f.0.0.1/', /local/],
    ['https://[::1]/', /local/],
    ['https://[::ffff:127.0.0.1]/', /local/],
    ['https://[fd00::1]/', /local/],
    ['https://[fe80::1]/', /local/],
    ['https://10.0.0.5/', /local/],
    ['https://172.20.1.1/', /local/],
    ['https://192.168.1.1/admin', /local/],
    ['https://169.254.169.254/latest/meta-data', /local/],
    ['https://printer.local/', /local/],
    ['https://intranet/', /local/],
    ['not a url', /not a URL/],
    [`https://example.com/${'a'.repeat(2100)}`, /too long/],
  ];
  for (const [url, why] of refused) {
    const v = externalUrlVerdict(url, CORE);
    assert.equal(v.allowed, false, url);
    if (!v.allowed) assert.match(v.reason, why, url);
  }
  // An https core (should it ever be) is refused as itself, not only as a local host.
  const v = externalUrlVerdict('https://sanad.example.org/admin', 'https://sanad.example.org');
  assert.ok(!v.allowed && v.reason === 'the core itself');
});

test('navigation and the bridge: only the core origin, exactly', () => {
  assert.ok(navigationAllowed('http://127.0.0.1:41234/', CORE));
  assert.ok(navigationAllowed('http://127.0.0.1:41234/login?code=x', CORE));
  for (const url of [
    'http://127.0.0.1:41235/',
    'http://localhost:41234/',
    'https://127.0.0.1:41234/',
    'http://user:pw@127.0.0.1:41234/',
    'file:///index.html',
    'https://example.com/',
    'about:blank',
    'devtools://devtools/bundled/inspector.html',
    '',
  ]) {
    assert.equal(navigationAllowed(url, CORE), false, url);
    assert.equal(isCoreUrl(url, CORE), false, url);
  }
  assert.ok(isLocalHost('LOCALHOST.'));
  assert.equal(isLocalHost('example.com'), false);
});

test('CSP: the GUI policy on the core, nothing allowed elsewhere, exactly one policy header', () => {
  const upstream = { 'content-type': ['text/html'], 'Content-Security-Policy': ['default-src *'], 'content-security-policy': ['script-src *'] };
  const core = withCsp(upstream, 'http://127.0.0.1:41234/', CORE);
  assert.deepEqual(core['Content-Security-Policy'], [GUI_CSP]);
  assert.equal(Object.keys(core).filter((k) => k.toLowerCase() === 'content-security-policy').length, 1);
  assert.deepEqual(core['content-type'], ['text/html']);
  assert.match(GUI_CSP, /script-src 'self'/);
  assert.doesNotMatch(GUI_CSP, /unsafe-inline|unsafe-eval/);
  assert.deepEqual(withCsp(undefined, 'https://example.com/', CORE)['Content-Security-Policy'], [NOTHING_CSP]);
  assert.deepEqual(withCsp({}, 'http://127.0.0.1:9/', CORE)['Content-Security-Policy'], [NOTHING_CSP]);
});

test('permissions: refused, except clipboard writes from the core page', () => {
  assert.ok(permissionAllowed('clipboard-sanitized-write', 'http://127.0.0.1:41234/settings', CORE));
  assert.equal(permissionAllowed('clipboard-sanitized-write', 'https://example.com/', CORE), false);
  for (const p of ['clipboard-read', 'notifications', 'media', 'geolocation', 'openExternal', 'fullscreen', 'unknown']) {
    assert.equal(permissionAllowed(p, 'http://127.0.0.1:41234/', CORE), false, p);
  }
});

test('window options: isolated, sandboxed, no Node, web security on, no webviews', () => {
  const o = mainWindowOptions('/app/dist/electron/preload.cjs');
  assert.deepEqual(o.webPreferences, {
    preload: '/app/dist/electron/preload.cjs',
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
  });
  assert.equal(o.show, false);
});
