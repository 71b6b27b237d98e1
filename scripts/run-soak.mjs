#!/usr/bin/env node
// `npm run soak [-- --minutes N] [--seed S]`: the compiled soak (soak/soak.ts). It starts a keychain
// of its own (a private D-Bus session and gnome-keyring daemon), so it runs the same with or
// without a desktop session.
import { spawnSync } from 'node:child_process';

const run = spawnSync(process.execPath, [new URL('../dist/soak/soak.js', import.meta.url).pathname, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
