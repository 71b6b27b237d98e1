// A remote that is down is "unreachable", not "no repository": restic 0.14 asks "Is there a
// repository at the following location?" for both, and only the transport error tells them apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyExit } from '../../../src/repository/restic/errors.js';

test('transport failures classify as unreachable before no_repo', () => {
  const down = [
    'Fatal: unable to open config file: Stat: Head "http://127.0.0.1:9/config": dial tcp 127.0.0.1:9: connect: connection refused',
    'Is there a repository at the following location?',
  ];
  assert.equal(classifyExit(1, down, [0, 14, 0]), 'unreachable');
  assert.equal(classifyExit(1, ['Fatal: unable to open config file: Stat: ... no such host'], [0, 14, 0]), 'unreachable');
  const missing = ['Fatal: unable to open config file: stat /tmp/x/config: no such file or directory', 'Is there a repository at the following location?'];
  assert.equal(classifyExit(1, missing, [0, 14, 0]), 'no_repo');
});
