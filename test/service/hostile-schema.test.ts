// The schema attack against a real `sanad serve`: a 25,000-value enum once held the engine for over
// a minute per answer (another client waited 93 s). Now it is refused before any grammar is made,
// and the largest enum a schema may have (1,000 values) runs within its budget while another client
// on the same model (the endless tiny one every data dir of the tests has) is answered.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { makeClient } from '../api/contract.js';
import { str } from '../harness/api.js';
import { prepareDataDir } from '../harness/data-dir.js';
import { startServiceProcess, type ServiceProcess } from '../harness/service-process.js';

const services: ServiceProcess[] = [];
after(async () => {
  for (const s of services) await s.stop();
});

const values = (n: number, width: number): string[] => Array.from({ length: n }, (_, i) => `v${String(i).padStart(width, '0')}`);
const withEnum = (n: number, width: number): Record<string, unknown> => ({
  type: 'json_schema',
  name: 'pick',
  strict: true,
  schema: { type: 'object', properties: { city: { enum: values(n, width) } }, required: ['city'], additionalProperties: false },
});

test('a 25,000-value enum is refused at once; the largest allowed runs within budget while another client is served', async () => {
  const { dataDir, adminToken } = await prepareDataDir();
  const service = await startServiceProcess(dataDir, adminToken);
  services.push(service);
  const attacker = service.api.withToken((await makeClient(service.api, ['responses:write'], 'attacker')).token);
  const other = service.api.withToken((await makeClient(service.api, ['responses:write'], 'other')).token);
  const ask = (input: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ model: 'tiny', input, max_output_tokens: 24, ...extra });

  // The other client's answer alone, for comparison.
  let t0 = performance.now();
  assert.equal((await other.post('/v1/responses', ask('alone'))).status, 200);
  const alone = performance.now() - t0;

  t0 = performance.now();
  const huge = await attacker.post('/v1/responses', ask('pick', { text: { format: withEnum(25_000, 5) } }));
  const refusedIn = performance.now() - t0;
  assert.equal(huge.status, 400, huge.text);
  assert.match(str(huge.body, 'error', 'message'), /more than 1000 in all/);
  assert.ok(refusedIn < 3_000, `refused in ${refusedIn.toFixed(0)} ms, before any grammar`);

  // The largest enum allowed, in the background, and the other client meanwhile.
  const allowed = await attacker.post('/v1/responses', ask('pick', { background: true, text: { format: withEnum(1000, 8) } }));
  assert.equal(allowed.status, 202, allowed.text);
  t0 = performance.now();
  const served = await other.post('/v1/responses', ask('meanwhile'));
  const meanwhile = performance.now() - t0;
  assert.equal(served.status, 200, served.text);
  // The endless model writes to its limit: an answer, cut at max_output_tokens.
  assert.equal(str(served.body, 'status'), 'incomplete');
  assert.ok(meanwhile < alone + 10_000, `the other client was answered in ${meanwhile.toFixed(0)} ms (alone: ${alone.toFixed(0)} ms)`);

  // And the enum's own answer ends (completed, or stopped by its per-token budget), not held forever.
  const id = str(allowed.body, 'id');
  const deadline = performance.now() + 120_000;
  let status = 'queued';
  while (performance.now() < deadline) {
    status = str((await attacker.get(`/v1/responses/${id}`)).body, 'status');
    if (status !== 'queued' && status !== 'in_progress') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.ok(status === 'completed' || status === 'failed' || status === 'incomplete', `the enum's answer ended: ${status}`);
});
