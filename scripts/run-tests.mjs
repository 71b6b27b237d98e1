#!/usr/bin/env node
// Runs the whole suite: compile, then node's own test runner over every compiled *.test.js.
// Tests that need the OS keychain run inside a private D-Bus session with an unlocked
// gnome-keyring when no session bus is present (CI, SSH); see README "Tests".
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensureKeyringSession } from './keyring-session.mjs';

const root = new URL('..', import.meta.url).pathname;

// The OS keychain (libsecret → Secret Service) needs a session bus: without one, the suite runs in
// a private one with a fresh, unlocked gnome-keyring (scripts/keyring-session.mjs).
ensureKeyringSession();
// The layer check and lint come first; the core compiles to dist/; the GUI is type-checked, built to dist/gui (the e2e tests load it from
// a real `sanad serve`) and its component tests run in jsdom. Any failure stops the run.
const only = process.argv.slice(2);
const steps = [
  // The layers (scripts/check-layers.mjs: every import goes down, no circles), then lint, which
  // also bans reading the wall clock outside clock.ts. Both on every run, filtered or not.
  ['node', 'scripts/check-layers.mjs'],
  ['eslint', '.'],
  // The formatter (prettier, .prettierrc.json): a change that is not formatted stops the run; `npm run format` fixes it.
  ['prettier', '--check', '--log-level', 'warn', '**/*.{ts,tsx,mjs,js,cjs}'],
  ['tsc', '-p', 'tsconfig.json'],
  // The desktop shell against Electron's own type definitions (electron/tsconfig.json), emitted:
  // test/electron/main-*.test.ts run dist/electron/main.js itself with a stand-in Electron.
  ['tsc', '-p', 'electron/tsconfig.json'],
  ['tsc', '-p', 'renderer/tsconfig.json'],
  ['vite', 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'],
  ['node', 'scripts/gui-budget.mjs'],
  // Component tests only on a whole run or when asked for ("renderer" among the filters).
  ...(only.length === 0 || only.some((o) => o.includes('renderer')) ? [['vitest', 'run', '--config', 'renderer/vite.config.ts']] : []),
];
for (const step of steps) {
  const r =
    step[0] === 'node' ? spawnSync(process.execPath, step.slice(1), { cwd: root, stdio: 'inherit' }) : spawnSync('npx', step, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`Failed: npx ${step.join(' ')}`);
    process.exit(r.status ?? 1);
  }
}

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...findTests(full));
    else if (name.endsWith('.test.js')) out.push(full);
  }
  return out;
}

const files = findTests(join(root, 'dist', 'test'))
  .filter((f) => only.length === 0 || only.some((o) => !o.includes('renderer') && f.includes(o)))
  .sort();
if (files.length === 0) {
  if (only.length > 0 && only.every((o) => o.includes('renderer'))) process.exit(0);
  console.error('No test files matched.');
  process.exit(1);
}
const args = ['--test', '--test-reporter=spec', '--test-concurrency=2', ...files];
const run = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
process.exit(run.status ?? 1);
