// `sanad drill` beside a running service: the service runs the drill as its job (never a second
// drill process beside its backups) and the command follows that run to its end, printing the
// same report and exit code as a drill run here.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { field, num, str } from '../harness/api.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { runSanad } from '../harness/run-sanad.js';

let t: TestAppliance | null = null;
after(async () => t?.close());

const EXIT: Record<string, number> = { PASS: 0, FAIL: 1, UNVERIFIED: 2 };

test('sanad drill beside a service: the service runs it, the command follows its run to the verdict', async () => {
  t = await startTestAppliance();
  const d = ['--data-dir', t.dataDir];
  const backup = await t.api.post('/admin/backups');
  assert.equal(backup.status, 202, backup.text);
  const r = await runSanad(['drill', '--json', ...d]);
  const report: unknown = JSON.parse(r.stdout);
  const verdict = str(report, 'verdict');
  assert.equal(r.code, EXIT[verdict], `${r.stdout}\n${r.stderr}`);
  const id = num(report, 'id');
  const run = await t.api.get(`/admin/runs/${id}`);
  assert.equal(field(run.body, 'kind'), 'drill');
  assert.equal(field(run.body, 'trigger'), 'api', 'asked of the service, not run by the command itself');
  assert.equal(field(run.body, 'drill', 'verdict'), verdict, 'the command printed the verdict the run recorded');
  assert.deepEqual(field(report, 'checks'), field(run.body, 'drill', 'checks'));

  const refused = await t.api.post('/admin/drills', { repo: 'nowhere' });
  assert.equal(refused.status, 404, 'an unknown repository is refused at once, not as a run that vanishes');
  assert.equal(field(refused.body, 'error', 'code'), 'repository_not_found');
  const unknown = await runSanad(['drill', '--repo', 'nowhere', ...d]);
  assert.equal(unknown.code, 2, unknown.stderr);
  assert.match(unknown.stderr, /nowhere/);
});
