// Coverage of the deep drill's rotating `--read-data-subset=n/t`: with one byte flipped in one pack,
// t consecutive deep drills read subsets 1..t in turn, exactly the one whose subset holds that pack
// (restic's rule: the pack id's first byte mod t) finds the damage, the packs read over the t runs
// add up to every pack of the repository, and once found, the damaged subset is read again by every
// later drill (read-data:recheck) instead of being forgotten.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { getRepository } from '../../src/repository/repositories.js';
import { writeSettings } from '../../src/store/settings.js';
import { systemClock } from '../../src/clock.js';
import { drillDepsFor } from '../../src/drill/drill-deps.js';
import { type DrillResult } from '../../src/drill/run-drill.js';
import { drillHere } from '../../src/jobs/run-here.js';
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
  // A subset that holds no pack is passed over (reading it would verify nothing), so the runs read
  // the subsets that hold packs, in order.
  const groups = [...new Set(packs.map((p) => (Number.parseInt(p.id.slice(0, 2), 16) % T) + 1))].sort((a, b) => a - b);
  for (let i = 0; i < groups.length; i++) runs.push(await drillHere(deps, { kind: 'deep', trigger: 'test' }));

  const read = runs.map((r) => r.checks.find((c) => c.name === 'local:read-data'));
  const subsets = read.map((c) =>
    /subset (\d+)\/(\d+): read/
      .exec(c?.detail ?? '')
      ?.slice(1)
      .join('/'),
  );
  assert.deepEqual(
    subsets,
    groups.map((g) => `${g}/${T}`),
    'the subsets that hold packs, one per run',
  );
  const failed = read.map((c, i) => (c?.status === 'fail' ? groups[i] : null)).filter((n) => n !== null);
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

  const at = groups.indexOf(expected) + 1;
  const later = runs.slice(at).map((r) => r.checks.find((c) => c.name === 'local:read-data:recheck'));
  assert.ok(
    later.every((c) => c?.status === 'fail' && c.detail.includes(`subset ${expected}/${T}`)),
    'later drills read the damaged subset again',
  );
  assert.ok(runs.slice(0, at).every((r) => !r.checks.some((c) => c.name === 'local:read-data:recheck')));
  assert.ok(
    runs.slice(at - 1).every((r) => r.verdict === 'FAIL'),
    'from the finding on, every deep drill is FAIL',
  );
});

test('a subset that holds no pack is never a PASS: with t = 256 the drill reads on to a subset with packs and says which it passed over', async () => {
  await t?.close();
  t = await startTestAppliance({ settings: { drill_read_subset_total: 256 } });
  const { ctx } = t.appliance;
  await backupNow(ctx);
  const packs = packFiles(getRepository(ctx.writer, 'local')?.location ?? '');
  // Pack ids are random: about one run in 256/packs draws a pack whose id starts 00 (subset 1/256).
  // Then the test takes the largest t below 256 that leaves subset 1 empty, so it never depends on luck.
  const groupOf = (id: string, total: number): number => (Number.parseInt(id.slice(0, 2), 16) % total) + 1;
  let T = 256;
  while (packs.some((p) => groupOf(p.id, T) === 1)) T--;
  if (T !== 256) writeSettings(ctx.writer, { drill_read_subset_total: T }, Math.floor(Date.now() / 1000));
  const groups = [...new Set(packs.map((p) => groupOf(p.id, T)))].sort((a, b) => a - b);
  assert.ok(packs.length < 100 && T > 128 && groups[0] !== 1, `a small repository leaves subset 1/${T} empty (groups ${groups.join(',')})`);
  const deps = await drillDepsFor({ db: ctx.writer, dataDir: t.dataDir, store: ctx.secrets.store, clock: systemClock, logger: silentLogger });

  const first = (await drillHere(deps, { kind: 'deep', trigger: 'test' })).checks.find((c) => c.name === 'local:read-data');
  assert.equal(first?.status, 'pass', first?.detail);
  const inGroup = (g: number | undefined): number => packs.filter((p) => groupOf(p.id, T) === g).length;
  assert.match(
    first.detail,
    new RegExp(
      `^subset ${groups[0]}/${T}: read ${inGroup(groups[0])} of ${packs.length} data packs, no errors \\(subsets? 1/${T} (to ${(groups[0] ?? 2) - 1}/${T} )?holds? no pack\\)$`,
    ),
  );
  assert.doesNotMatch(first.detail, /read 0 of/);

  const second = (await drillHere(deps, { kind: 'deep', trigger: 'test' })).checks.find((c) => c.name === 'local:read-data');
  assert.equal(second?.status, 'pass', second?.detail);
  const next = groups[1] ?? groups[0];
  assert.match(second.detail, new RegExp(`^subset ${next}/${T}: read ${inGroup(next)} of`), 'the next drill goes on after the subset read last');
});
