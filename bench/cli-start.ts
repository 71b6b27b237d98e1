// How long `sanad --version` and `sanad help` take as whole processes, against a bare `node -e 0`
// in the same run (medians of alternating runs): what a person waits for before anything prints.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from './stats.js';

const BIN = fileURLToPath(new URL('../../bin/sanad.js', import.meta.url));

function timed(args: string[]): number {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status ?? r.signal ?? '?'}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export interface CliStart {
  nodeMs: number;
  versionMs: number;
  helpMs: number;
  doctorHelpMs: number;
  rounds: number;
}

export function cliStartBench(rounds = 15): CliStart {
  const node: number[] = [];
  const version: number[] = [];
  const help: number[] = [];
  const doctorHelp: number[] = [];
  for (let i = 0; i < rounds; i++) {
    node.push(timed(['-e', '0']));
    version.push(timed([BIN, '--version']));
    help.push(timed([BIN, 'help']));
    doctorHelp.push(timed([BIN, 'doctor', '--help']));
  }
  return { nodeMs: median(node), versionMs: median(version), helpMs: median(help), doctorHelpMs: median(doctorHelp), rounds };
}
