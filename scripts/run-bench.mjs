#!/usr/bin/env node
// `npm run bench [names…]`: the compiled bench, with a real keychain even on a machine without a
// desktop session (the bench starts `sanad serve`, which needs one).
import { spawnSync } from 'node:child_process';
import { ensureKeyringSession } from './keyring-session.mjs';

ensureKeyringSession();
const run = spawnSync(process.execPath, [new URL('../dist/bench/run.js', import.meta.url).pathname, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
