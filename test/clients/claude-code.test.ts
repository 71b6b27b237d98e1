// Claude Code itself (the `@anthropic-ai/claude-code` package, its native binary) in print mode
// against a real `sanad serve`, as a person points it at a local server: ANTHROPIC_BASE_URL and a
// token, with its non-essential traffic (telemetry, updates, error reports) switched off since this
// machine has no internet. Its default tools and system prompt go with every request (about 80,000
// characters), so the demo model is given a context that holds them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { TINY_MODEL_ANSWER } from '../../src/demo/tiny-model.js';
import { field, str } from '../harness/api.js';
import { makeClient } from '../api/contract.js';
import { addModelFile, prepareDataDir } from '../harness/data-dir.js';
import { startServiceProcess } from '../harness/service-process.js';
import { finishingModelPath } from '../fixtures/tiny-model.js';

/** The package's own launcher: it finds the platform's binary (npm may not run its postinstall). */
function claudeCodeLauncher(): string {
  return join(dirname(createRequire(import.meta.url).resolve('@anthropic-ai/claude-code/package.json')), 'cli-wrapper.cjs');
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runClaude(args: string[], env: Record<string, string>, cwd: string, timeoutMs: number): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [claudeCodeLauncher(), ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

test('Claude Code in print mode answers through Sanad, and its message is a stored task', { timeout: 300_000 }, async () => {
  const prepared = await prepareDataDir({ requests_per_minute_per_client: 1_000_000 });
  await addModelFile(prepared.dataDir, 'demo', await finishingModelPath(1, 131_072));
  const service = await startServiceProcess(prepared.dataDir, prepared.adminToken);
  const home = mkdtempSync(join(tmpdir(), 'sanad-claude-home-'));
  try {
    // Claude Code's system prompt and tools fill more than the engine's default context of 8,192.
    const set = await service.api.post('/admin/models/demo/settings', { context_size: 131_072 });
    assert.equal(set.status, 200, set.text);
    const client = await makeClient(service.api, ['responses:write', 'models:read'], 'claude-code');
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      ANTHROPIC_BASE_URL: service.url,
      ANTHROPIC_API_KEY: client.token,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
    };
    const run = await runClaude(['-p', 'Say hello', '--model', 'demo', '--output-format', 'json'], env, home, 240_000);
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    const result: unknown = JSON.parse(run.stdout);
    assert.equal(field(result, 'is_error'), false, run.stdout);
    assert.equal(str(result, 'result'), TINY_MODEL_ANSWER);

    // Each of its requests is a task on the ledger, kept as a response (in every backup).
    const tasks = await service.api.get('/v1/tasks?limit=20');
    const data = field(tasks.body, 'data');
    assert.ok(Array.isArray(data) && data.length > 0, tasks.text);
    const done = data.filter((t: unknown) => str(t, 'status') === 'completed' && str(t, 'model') === 'demo');
    assert.ok(done.length > 0, tasks.text);
    const kept = await service.api.get(`/v1/responses/${str(done[0], 'response_id')}`);
    assert.equal(kept.status, 200, kept.text);
  } finally {
    await service.kill();
    rmSync(home, { recursive: true, force: true });
  }
});
