// Coverage of the deep drill's rotating `--read-data-subset=n/t`: with one byte flipped in one pack,
// t consecutive deep drills read subsets 1..t in turn, exactly the one whose subset holds that pack
// (restic's rule: the pack id's first byte mod t) finds the damage, the packs read over the t runs
// add up to every pack of the repository, and once found, the damaged subset is read again by every
// later drill (read-data:recheck) instead of being forgotten.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { getRepository } from '../../src/backup/repositories.js';
import { systemClock } from '../../src/clock.js';
import { drillDepsFor } from '../../src/drill/drill-deps.js';
import { runDrill, type DrillResult } from '../../src/drill/run-drill.js';
import { silentLogger } from '../../src/log/logger.js';
import { startTestAppliance, type TestAppliance } from '../harness/appliance.js';
import { backupNow, flipByte, packFiles } from './kit.js';

let t: TestAppliance | null = null;
after(async () => t?.close());

const T = 4;

test(`t = ${T} deep drills read every pack once; exactly the run holding the flipped pack fails`, async () => {
  t = await startTestAppliance({ settings: { drill_read_subset_total: T } });
  const { ctx } = t.appliance;
  await backupNow(ctx);
  await t.api.post('/v1/responses', { model: 'tiny', input: 'more data', max_output_tokens: 8 });
  await backupNow(ctx);
  const repoDir = getRepository(ctx.writer, 'local')?.location ?? '';
  const packs = packFiles(repoDir);
  // The biggest pack holds file data (the model). A tree pack would not do: every `restic check`
  // reads all trees, whatever the subset.
  const victim = packs[0];
  assert.ok(victim);
  flipByte(victim.path);
  const expected = (Number.parseInt(victim.id.slice(0, 2), 16) % T) + 1;

  const deps = await drillDepsFor({ db: ctx.writer, dataDir: t.dataDir, store: ctx.secrets.store, clock: systemClock, logger: silentLogger });
  const runs: DrillResult[] = [];
  for (let i = 0; i < T; i++) runs.push(await runDrill(deps, { kind: 'deep', trigger: 'test' }));

  const read = runs.map((r) => r.checks.find((c) => c.name === 'local:read-data'));
  const subsets = read.map((c) => /subset (\d+)\/(\d+)/.exec(c?.detail ?? '')?.slice(1).join('/'));
  assert.deepEqual(subsets, Array.from({ length: T }, (_, i) => `${i + 1}/${T}`), 'subsets 1..t, one per run');
  const failed = read.map((c, i) => (c?.status === 'fail' ? i + 1 : null)).filter((n) => n !== null);
  assert.deepEqual(failed, [expected], `only subset ${expected} (pack ${victim.id.slice(0, 8)}) finds the damage`);
  assert.ok(read.every((c) => c?.status !== 'unverified'));

  let sum = 0;
  for (const c of read) {
    const m = /read (\d+) of (\d+) data packs/.exec(c?.detail ?? '');
    assert.ok(m, c?.detail);
    sum += Number(m[1]);
    assert.equal(Number(m[2]), packs.length, 'restic counts the same packs the repository folder holds');
  }
  assert.equal(sum, packs.length, `the ${T} subsets together read all ${packs.length} packs, each once`);

  const later = runs.slice(expected).map((r) => r.checks.find((c) => c.name === 'local:read-data:recheck'));
  assert.ok(later.every((c) => c?.status === 'fail' && c.detail.includes(`subset ${expected}/${T}`)), 'later drills read the damaged subset again');
  assert.ok(runs.slice(0, expected).every((r) => !r.checks.some((c) => c.name === 'local:read-data:recheck')));
  assert.ok(runs.slice(expected - 1).every((r) => r.verdict === 'FAIL'), 'from the finding on, every deep drill is FAIL');
});
