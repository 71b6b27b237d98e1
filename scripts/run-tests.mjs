#!/usr/bin/env node
// Runs the whole suite: compile, then node's own test runner over every compiled *.test.js.
// Tests that need the OS keychain run inside a private D-Bus session with an unlocked
// gnome-keyring when no session bus is present (CI, SSH); see README "Tests".
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const build = spawnSync('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...findTests(full));
    else if (name.endsWith('.test.js')) out.push(full);
  }
  return out;
}

const only = process.argv.slice(2);
const files = findTests(join(root, 'dist', 'test'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
if (files.length === 0) {
  console.error('No test files matched.');
  process.exit(1);
}
const args = ['--test', '--test-reporter=spec', '--test-concurrency=2', ...files];
const run = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
process.exit(run.status ?? 1);
