// Every screen read as a person would, in real Chromium, after a backup, a drill, a task and a failed
// one: in Arabic no English prose (a Latin-letter run that is not a name, a path, an id or code, which are
// isolated and marked as such), and in English no raw "(s)" plural and no raw enum value.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { field, str, waitFor, type Api, noOpenRun } from '../harness/api.js';
import { prepareDataDir } from '../harness/data-dir.js';
import { startServiceProcess, type ServiceProcess } from '../harness/service-process.js';
import { openGui, type Gui } from './browser.js';
import { latinRuns, proseOf, rawValues } from './latin-runs.js';

let service: ServiceProcess | null = null;
let gui: Gui | null = null;
after(async () => {
  await gui?.close();
  await service?.kill();
});

const SCREENS = ['overview', 'chat', 'tasks', 'models', 'clients', 'backups', 'offsite', 'drills', 'restore', 'settings'] as const;
/** Names of programs and formats, which no language translates. */
const PROGRAMS =
  /^(restic|rclone|age|SQLite|JSON|GGUF|Hugging Face|Vite|Electron|Chromium|sha256|SHA-256|TLS|URL|API|GPU|CPU|RAM|LAN|QR|S3|R2|B2|WebDAV|SFTP|REST|HTTP|HTTPS|UTC|NAS|PEM|Node|MB|kB|GB|TB|KiB|MiB|GiB)$/;
const RAW_ENUM = /^(completed|queued|in_progress|cancelled|failed|fail|pass|unverified|succeeded|running|waiting|interrupted|ok|warn)$/;

// Still English in the Arabic GUI, to be worded (issue 30, open): help texts whose examples and
// placeholders are not yet marked as code, key names not yet <kbd>, the catalogue's model names and
// licences, and names still shown bare. A run not listed here fails the test; the list only shrinks.
const KNOWN: Record<string, readonly string[]> = {};

async function settle(gui: Gui): Promise<void> {
  const { page } = gui;
  await page.locator('main h1').first().waitFor();
  await waitFor(async () => (await page.locator('main [aria-busy="true"]').count()) === 0, 10_000, 'the screen to load').catch(() => undefined);
  await page.waitForTimeout(600);
}

/** A background task that fails: its input is longer than the tiny model's context. */
async function failedTask(api: Api): Promise<string> {
  const res = await api.post('/v1/responses', { model: 'tiny', input: 'too long '.repeat(4000), background: true, max_output_tokens: 8 });
  assert.equal(res.status, 202, res.text);
  const task = str(res.body, 'task_id');
  await waitFor(async () => str((await api.get(`/v1/tasks/${task}`)).body, 'status') === 'failed', 60_000, 'the task to fail');
  return task;
}

async function ready(api: Api): Promise<string> {
  assert.equal((await api.post('/admin/backups')).status, 202);
  await waitFor(async () => await noOpenRun(api, 'backup'), 120_000, 'the backup');
  assert.equal((await api.post('/admin/drills', {})).status, 202);
  await waitFor(async () => await noOpenRun(api, 'drill'), 120_000, 'the drill');
  const res = await api.post('/v1/responses', { model: 'tiny', input: 'Say hello', background: true, max_output_tokens: 8 });
  assert.ok(res.status === 202 || res.status === 200, res.text);
  const task = str(res.body, 'task_id');
  await waitFor(async () => ['completed', 'failed', 'cancelled'].includes(str((await api.get(`/v1/tasks/${task}`)).body, 'status')), 60_000, 'the task');
  return task;
}

test('every screen in Arabic says no English sentence; in English no "(s)" and no raw status', async () => {
  const prepared = await prepareDataDir();
  service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  const task = await ready(service.api);
  const failed = await failedTask(service.api);
  gui = await openGui(service.loginUrl);
  const { page } = gui;
  await page.getByTestId('live-state').and(page.locator('.live.on')).waitFor({ timeout: 10_000 });
  const found: Record<string, string[]> = {};
  for (const lang of ['en', 'ar'] as const) {
    if (lang === 'ar') {
      await page.getByTestId('language-switch').click();
      await page.locator('html[dir="rtl"]').waitFor();
      // The choice is kept with the core (the desktop's page forgets it each launch; the tray follows it).
      await waitFor(async () => field((await service?.api.get('/admin/settings'))?.body, 'language') === 'ar', 5_000, 'the language setting');
    }
    const visits = [
      ...SCREENS.map((s) => ({ name: s, hash: `#/${s}` })),
      { name: 'task', hash: `#/tasks/${task}` },
      { name: 'failed-task', hash: `#/tasks/${failed}` },
    ];
    for (const v of visits) {
      await page.evaluate(`location.hash = ${JSON.stringify(v.hash)}`);
      await page.waitForURL((u) => u.hash === v.hash);
      await settle(gui);
      const prose = await proseOf(page, 'body');
      const bad =
        lang === 'ar'
          ? latinRuns(prose, [PROGRAMS])
          : [...prose.matchAll(/\w+\(s\)|\(\d+ entries\)/g)].map((m) => m[0]).concat(await rawValues(page, RAW_ENUM));
      // The task page shows the model's own output (a tiny random model's tokens): not checked in Arabic yet.
      const key = `${lang} ${v.name}`;
      const unknown = bad.filter((b) => !(KNOWN[key] ?? []).includes(b));
      if (unknown.length > 0 && key !== 'ar task') found[key] = unknown;
      await gui.screenshot(`words-${v.name}-${lang}`);
    }
    // The failure is said in the reader's language (its code stays beside it, as code).
    await page.evaluate(`location.hash = ${JSON.stringify(`#/tasks/${failed}`)}`);
    await page.getByTestId('task-error').waitFor();
    const said = await page.getByTestId('task-error').innerText();
    assert.match(said, lang === 'ar' ? /^المدخل أطول/ : /^The input is \d+ tokens/, said);
  }
  assert.deepEqual(found, {}, `English prose or raw words not known before:\n${JSON.stringify(found, null, 1)}`);
});
