// The test build of the `sanad` command whose `serve` runs on the soak's moved clock
// (moved-clock.ts; the file is named by SANAD_SOAK_CLOCK_FILE). Everything else is the shipped CLI.
import { main } from '../../src/cli/main.js';
import { movedClock } from './moved-clock.js';

const file = process.env.SANAD_SOAK_CLOCK_FILE;
if (file === undefined || file === '') throw new Error('serve-moved-clock: SANAD_SOAK_CLOCK_FILE names the offset file');
process.exitCode = await main(process.argv.slice(2), movedClock(file));
