// The logger never writes a secret: registered values are scrubbed wherever they appear, and
// fields with secret-bearing names are masked at any depth.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger, levelFromEnv } from '../../src/log/logger.js';

test('registered secrets and secret-named fields never reach the sink', () => {
  const lines: string[] = [];
  const log = createLogger({ sink: (l) => lines.push(l), level: 'debug' });
  const pass = 'abcde-fghij-kmnpq-rstuv-wxyz2-34567';
  log.addSecret(pass);
  log.info(`opening repository with ${pass} inside a message`, {
    detail: `again ${pass}`,
    nested: { deeper: [{ note: pass }], authorization: 'Bearer sk-sanad-xyz' },
    password: 'hunter2-hunter2',
    count: 3,
  });
  const out = lines.join('\n');
  assert.ok(!out.includes(pass));
  assert.ok(!out.includes('sk-sanad-xyz'));
  assert.ok(!out.includes('hunter2'));
  const entry: unknown = JSON.parse(lines[0] ?? '{}');
  assert.deepEqual(entry && typeof entry === 'object' && 'count' in entry ? entry.count : null, 3, 'other fields are kept');
  assert.match(out, /\[redacted\]/);
});

test('levels filter, and SANAD_LOG picks the level', () => {
  const lines: string[] = [];
  const log = createLogger({ sink: (l) => lines.push(l), level: levelFromEnv('warn') });
  log.info('quiet');
  log.warn('loud');
  assert.equal(lines.length, 1);
  assert.equal(levelFromEnv('nonsense'), 'info');
});
