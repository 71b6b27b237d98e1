#!/usr/bin/env node
// The `sanad` command: a thin launcher for the compiled CLI (npm run build makes dist/).
import { main } from '../dist/src/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
