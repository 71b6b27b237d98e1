// The spawn layer with real child processes (node itself as the child): SIGINT before SIGKILL,
// no parent environment leaking, secret files that are private and gone afterwards, bounded
// tails, a registry that empties, and a log line with secrets redacted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { runChild, runningChildren, stopAllChildren, withSecretFile } from '../../src/process/spawn.js';
import { createLogger } from '../../src/log/logger.js';

const node = process.execPath;

test('abort sends SIGINT first, then SIGKILL to a child that ignores SIGINT', async () => {
  const controller = new AbortController();
  const script = "process.on('SIGINT', () => console.log('got SIGINT')); console.log('ready'); setInterval(() => {}, 1000);";
  const started = Date.now();
  const result = await runChild({
    command: node,
    args: ['-e', script],
    env: {},
    signal: controller.signal,
    killGraceMs: 400,
    onStdoutLine: (line) => {
      if (line === 'ready') controller.abort();
    },
  });
  assert.equal(result.signal, 'SIGKILL');
  assert.ok(result.stdoutTail.includes('got SIGINT'), 'the child saw SIGINT before it was killed');
  assert.ok(Date.now() - started >= 400, 'SIGKILL waited for the grace period');
});

test('a child that exits on SIGINT is not SIGKILLed', async () => {
  const controller = new AbortController();
  const script = "process.on('SIGINT', () => { console.log('cleaning up'); process.exit(130); }); console.log('ready'); setInterval(() => {}, 1000);";
  const result = await runChild({
    command: node,
    args: ['-e', script],
    env: {},
    signal: controller.signal,
    killGraceMs: 5000,
    onStdoutLine: (line) => {
      if (line === 'ready') controller.abort();
    },
  });
  assert.equal(result.code, 130);
  assert.equal(result.signal, null);
  assert.deepEqual(result.stdoutTail, ['ready', 'cleaning up']);
});

test('the child gets the safe base plus the given env, never the rest of the parent env', async () => {
  process.env.SANAD_TEST_PARENT_SECRET = 'parent-secret-value';
  process.env.RESTIC_PASSWORD = 'parent-restic-password';
  try {
    const result = await runChild({ command: node, args: ['-e', 'console.log(JSON.stringify(process.env))'], env: { GIVEN: 'yes' } });
    const env: unknown = JSON.parse(result.stdoutTail.join(''));
    assert.ok(env !== null && typeof env === 'object');
    assert.equal('SANAD_TEST_PARENT_SECRET' in env, false);
    assert.equal('RESTIC_PASSWORD' in env, false);
    assert.equal('GIVEN' in env && env.GIVEN, 'yes');
    assert.ok('PATH' in env);
  } finally {
    delete process.env.SANAD_TEST_PARENT_SECRET;
    delete process.env.RESTIC_PASSWORD;
  }
});

test('a secret file is 0600 in a 0700 dir, readable by the child, and gone afterwards (also after a throw)', async () => {
  let seen = '';
  const out = await withSecretFile('s3cret-passphrase', async (path) => {
    seen = path;
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(statSync(dirname(path)).mode & 0o777, 0o700);
    const r = await runChild({ command: node, args: ['-e', 'process.stdout.write(require("fs").readFileSync(process.env.F, "utf8"))'], env: { F: path } });
    return r.stdoutTail.join('');
  });
  assert.equal(out, 's3cret-passphrase');
  assert.equal(existsSync(seen), false);
  assert.equal(existsSync(dirname(seen)), false);

  await assert.rejects(
    withSecretFile('x-passphrase', async (path) => {
      seen = path;
      throw new Error('boom');
    }),
    /boom/,
  );
  assert.equal(existsSync(dirname(seen)), false);
});

test('tails are bounded, long lines are cut, consumed stdout lines stay out of the tail', async () => {
  const script =
    "for (let i = 0; i < 1000; i++) { console.log('line ' + i); console.error('err ' + i); } console.log('x'.repeat(10000)); console.log('{\"json\":1}')";
  const delivered: string[] = [];
  const result = await runChild({
    command: node,
    args: ['-e', script],
    env: {},
    onStdoutLine: (line) => {
      delivered.push(line);
      return line.startsWith('{');
    },
  });
  assert.equal(delivered.length, 1002, 'every line reaches the callback');
  assert.equal(delivered[1000]?.length, 10000, 'the callback gets a long line whole');
  assert.equal(result.stdoutTail.length, 200);
  assert.equal(result.stdoutTail[0], 'line 801');
  assert.ok((result.stdoutTail.at(-1)?.length ?? 0) < 5000, 'the tail keeps a cut copy');
  assert.ok(!result.stdoutTail.includes('{"json":1}'));
  assert.equal(result.stderrTail.length, 200);
  assert.equal(result.stderrTail.at(-1), 'err 999');
});

test('the registry lists running children and empties; stopAllChildren stops them all', async () => {
  const script = "process.on('SIGINT', () => process.exit(0)); setInterval(() => {}, 1000); console.log('up')";
  let up = 0;
  const onStdoutLine = (): void => {
    up++;
  };
  const runs = [1, 2, 3].map(() => runChild({ command: node, args: ['-e', script], env: {}, onStdoutLine }));
  while (up < 3) await new Promise((r) => setTimeout(r, 20));
  const listed = runningChildren();
  assert.equal(listed.length, 3);
  assert.ok(listed.every((c) => typeof c.pid === 'number' && c.command === node));
  await stopAllChildren(2000);
  assert.equal(runningChildren().length, 0);
  for (const r of await Promise.all(runs)) assert.equal(r.code, 0);
});

test('the logged command has every secret redacted from its args; a missing program rejects', async () => {
  const lines: string[] = [];
  const logger = createLogger({ level: 'debug', sink: (l) => lines.push(l) });
  await runChild({ command: node, args: ['-e', '0', '--', 'pw=hunter2-hunter2'], env: {}, secrets: ['hunter2-hunter2'], logger });
  const log = lines.join('\n');
  assert.match(log, /child start/);
  assert.match(log, /pw=\[redacted\]/);
  assert.ok(!log.includes('hunter2-hunter2'));
  await assert.rejects(runChild({ command: '/nonexistent/program', args: [], env: {} }), /ENOENT/);
  assert.equal(runningChildren().length, 0);
});

test('a throwing line callback stops the child and rejects, instead of crashing the process', async () => {
  const script = "process.on('SIGINT', () => process.exit(0)); console.log('hello'); setInterval(() => {}, 1000);";
  await assert.rejects(
    runChild({
      command: node,
      args: ['-e', script],
      env: {},
      onStdoutLine: () => {
        throw new Error('callback bug');
      },
    }),
    /callback bug/,
  );
  assert.equal(runningChildren().length, 0);
});
