// rclone destinations: a configured remote by name; inline backends, connection strings,
// option-like names and control characters refused before rclone runs; spaces and Arabic fine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertConfiguredRemote, parseRcloneDestination, RcloneDestinationError } from '../../src/repository/rclone-destination.js';

test('refused before rclone runs', () => {
  const refused: Array<[string, RegExp]> = [
    [':s3:bucket/sanad', /inline backends/],
    [':local:/tmp', /inline backends/],
    ['-vv', /command-line option/],
    ['--config=/etc/x:path', /command-line option/],
    ['backup,provider=AWS:bucket', /connection-string/],
    ['backup:\u0000x', /control characters/],
    ['back\nup:sanad', /control characters/],
    ['backup:path\u001b[31m', /control characters/],
    ['nocolon', /configured remote/],
    [' lead:x', /not a valid rclone remote name/],
    ['backup:-x', /path looks like a command-line option/],
  ];
  for (const [dest, why] of refused) {
    assert.throws(
      () => parseRcloneDestination(dest),
      (err: unknown) => err instanceof RcloneDestinationError && why.test(err.message),
      dest,
    );
  }
});

test('spaces and Arabic are accepted, and the remote must be configured', () => {
  assert.deepEqual(parseRcloneDestination('backup:restic'), { remote: 'backup', path: 'restic' });
  assert.deepEqual(parseRcloneDestination('my drive:نسخ احتياطية/سند'), { remote: 'my drive', path: 'نسخ احتياطية/سند' });
  assert.deepEqual(parseRcloneDestination('سحابة:sanad backups'), { remote: 'سحابة', path: 'sanad backups' });
  const listed = 'backup:\nmy drive:\n';
  assert.doesNotThrow(() => assertConfiguredRemote(parseRcloneDestination('my drive:x'), listed));
  assert.throws(() => assertConfiguredRemote(parseRcloneDestination('other:x'), listed), /no rclone remote named "other"/);
});
