// The logger never writes a secret: registered values are scrubbed wherever they appear, and
// fields with secret-bearing names are masked at any depth.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger, isSecretKey, levelFromEnv } from '../../src/log/logger.js';

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

test('secret-bearing names in any spelling are masked, at any depth; counts of tokens are not', () => {
  const lines: string[] = [];
  const log = createLogger({ sink: (l) => lines.push(l) });
  const deep: Record<string, unknown> = { value: 'the-deep-secret-value' };
  let nested: Record<string, unknown> = deep;
  for (let i = 0; i < 12; i++) nested = { inner: nested };
  log.info('x', {
    aws_secret_access_key: 'AKIAsecret1',
    new_password: 'hunter2hunter2',
    login_url: 'http://127.0.0.1:7437/login?code=abc',
    sessionToken: 'tok-tok-tok',
    privateKey: 'pk-pk-pk',
    remote: { config: { s3: { creds: { keys: { secret: 'five-levels-down' } } } } },
    nested,
    output_tokens: 42,
    error_code: 'disk_full',
  });
  const out = lines.join('\n');
  for (const leaked of ['AKIAsecret1', 'hunter2hunter2', 'login?code=abc', 'tok-tok-tok', 'pk-pk-pk', 'five-levels-down', 'the-deep-secret-value']) {
    assert.ok(!out.includes(leaked), `${leaked} leaked: ${out}`);
  }
  assert.match(out, /"output_tokens":42/);
  assert.match(out, /"error_code":"disk_full"/);
  assert.ok(isSecretKey('api_key') && isSecretKey('apiKey') && isSecretKey('x-sanad-session') && !isSecretKey('max_tokens') && !isSecretKey('keys'));
});
