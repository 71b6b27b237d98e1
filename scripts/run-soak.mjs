#!/usr/bin/env node
// `npm run soak [-- --minutes N] [--seed S]`: the compiled soak (soak/soak.ts), with a real keychain
// even on a machine without a desktop session (it starts `sanad serve`, which needs one).
import { spawnSync } from 'node:child_process';
import { ensureKeyringSession } from './keyring-session.mjs';

ensureKeyringSession();
const run = spawnSync(process.execPath, [new URL('../dist/soak/soak.js', import.meta.url).pathname, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
