// `sanad --version`, `sanad help COMMAND` and `COMMAND --help` as a person types them: the version
// is package.json's with the Node running it, a command's help is its own lines of the usage (and
// the options every command takes), and a typo in the name gets the nearest command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { jsonOut, runCli } from './run-cli.js';

const VERSION: unknown = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
const version = typeof VERSION === 'object' && VERSION !== null && 'version' in VERSION ? VERSION.version : null;

test("sanad --version and sanad version say Sanad's version and Node's; --json as an object", async () => {
  for (const args of [['--version'], ['version'], ['-V']]) {
    const r = await runCli(args);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), `sanad ${String(version)} (Node ${process.versions.node})`);
  }
  const j = await runCli(['--version', '--json']);
  assert.deepEqual(jsonOut(j), { sanad: version, node: process.versions.node });
});

test("a command's help is its own lines: sanad help restore, restore --help, and a typo's suggestion", async () => {
  const viaHelp = await runCli(['help', 'restore']);
  const viaFlag = await runCli(['restore', '--help']);
  assert.equal(viaHelp.code, 0, viaHelp.stderr);
  assert.equal(viaFlag.stdout, viaHelp.stdout, 'the same text either way');
  assert.match(viaHelp.stdout, /^Usage: sanad restore \[options\]/);
  assert.match(viaHelp.stdout, /restore --target DIR/);
  assert.match(viaHelp.stdout, /--data-dir DIR/, 'with the options every command takes');
  assert.doesNotMatch(viaHelp.stdout, /backup now|repo add/, 'and no other command');
  const repo = await runCli(['repo', '--help']);
  assert.equal((repo.stdout.match(/^ {2}repo /gm) ?? []).length, 5, 'every repo line, with their continuations');

  const typo = await runCli(['help', 'restor']);
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /no command "restor"; did you mean "restore"\?/);
  const whole = await runCli(['help']);
  assert.equal(whole.code, 0);
  assert.match(whole.stdout, /sanad help COMMAND \| sanad COMMAND --help/);
});
