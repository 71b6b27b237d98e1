// Pulling a model from a local server speaking the hub's protocol (test/fixtures/hub-server.ts),
// against plain `curl -L` of the same file from the same server in the same run:
// - throughput: `sanad models pull` end to end (plan with the header read, the download by
//   ipull, the sha256 verification, the registration) vs curl's download alone;
// - verification: Sanad's sha256 of the downloaded file (in a worker) per GiB vs `sha256sum`.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sha256FileInWorker } from '../src/files/hash-file.js';
import { paddedModel } from '../test/fixtures/hub-models.js';
import { startTestHub } from '../test/fixtures/hub-server.js';
import { prepareDataDir } from '../test/harness/data-dir.js';
import { runSanad } from '../test/harness/run-sanad.js';
import { median } from './stats.js';

// Async: the hub server runs in this process and must go on answering while curl downloads.
const run = promisify(execFile);

export interface PullBench {
  bytes: number;
  curlMs: number;
  sanadMs: number;
  verifyMsPerGiB: number;
  sha256sumMsPerGiB: number;
  runs: number;
}

/** `linkBytesPerSecond`: the server's speed for all connections together (0: as fast as loopback goes). */
export async function pullBench(mib: number, runs: number, linkBytesPerSecond = 0): Promise<PullBench> {
  const bytes = mib * 1024 * 1024;
  const hub = await startTestHub(
    [{ owner: 'bench', repo: 'big-GGUF', files: [{ path: 'big.Q4_K_M.gguf', bytes: paddedModel(7, bytes) }] }],
    linkBytesPerSecond ? { totalRate: linkBytesPerSecond } : {},
  );
  const scratch = mkdtempSync(join(tmpdir(), 'sanad-bench-pull-'));
  const curl: number[] = [];
  const sanad: number[] = [];
  const verify: number[] = [];
  const sum: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const out = join(scratch, `curl-${i}.gguf`);
      let t = performance.now();
      await run('curl', ['-sSfL', '-o', out, `${hub.endpoint}bench/big-GGUF/resolve/main/big.Q4_K_M.gguf`]);
      curl.push(performance.now() - t);
      t = performance.now();
      await run('sha256sum', [out]);
      sum.push(((performance.now() - t) * 1024) / mib);
      t = performance.now();
      await sha256FileInWorker(out);
      verify.push(((performance.now() - t) * 1024) / mib);
      rmSync(out);

      const { dataDir } = await prepareDataDir();
      t = performance.now();
      const r = await runSanad(['--data-dir', dataDir, 'models', 'pull', 'hf:bench/big-GGUF:Q4_K_M'], {
        env: { HF_ENDPOINT: hub.endpoint, DBUS_SESSION_BUS_ADDRESS: '' },
      });
      sanad.push(performance.now() - t);
      if (r.code !== 0) throw new Error(`the pull failed: ${r.stderr}`);
      rmSync(dataDir, { recursive: true, force: true });
    }
  } finally {
    await hub.close();
    rmSync(scratch, { recursive: true, force: true });
  }
  return { bytes, curlMs: median(curl), sanadMs: median(sanad), verifyMsPerGiB: median(verify), sha256sumMsPerGiB: median(sum), runs };
}
