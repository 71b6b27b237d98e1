// Shared pieces of the desktop shell's integration tests: a model large enough that restic is still
// uploading when the test acts, a wait for that upload, and a logger that keeps its lines.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runningChildren, type RunningChild } from '../../src/process/spawn.js';
import { createLogger, type Logger } from '../../src/log/logger.js';
import type { ServiceContext } from '../../src/service/context.js';
import { ModelRegistry } from '../../src/engine/registry.js';
import { waitFor } from '../harness/api.js';
import { tempDir } from '../harness/data-dir.js';
import { backupProgress } from '../harness/open-runs.js';

/** Registers a ~160 MB model (the tiny model plus random bytes: nothing for restic to compress). */
export async function addBigModel(ctx: ServiceContext): Promise<void> {
  const tiny = ctx.writer.prepare<[], { path: string }>("SELECT path FROM models WHERE id = 'tiny'").get()?.path;
  assert.ok(tiny);
  const big = join(tempDir('sanad-big-model-'), 'big.gguf');
  writeFileSync(big, Buffer.concat([readFileSync(tiny), randomBytes(160 * 1024 * 1024)]));
  await new ModelRegistry(ctx.writer, ctx.clock).add(big, 'big');
}

/** Waits until restic is uploading (progress seen) and returns its child. */
export async function resticUploading(ctx: ServiceContext): Promise<RunningChild> {
  return waitFor(
    () => {
      const p = backupProgress(ctx);
      return p?.phase === 'upload' && p.bytes_done > 0 ? runningChildren().find((c) => c.args.includes('backup')) : undefined;
    },
    90_000,
    'restic uploading',
  );
}

export function recordingLogger(): { logger: Logger; entries: () => Array<Record<string, unknown>> } {
  const lines: string[] = [];
  const logger = createLogger({ level: 'debug', sink: (line) => lines.push(line) });
  return {
    logger,
    entries: () => lines.map((l): unknown => JSON.parse(l)).filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null),
  };
}

/** True while a process with this pid exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
