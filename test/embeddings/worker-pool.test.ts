/**
 * The embedding worker pool, in child processes (what is at stake is the process: its stdout, its
 * stderr and whether it exits): worker console output reaches stderr and never stdout, idle workers do
 * not keep a process alive, and a process that embedded one query (which starts the workers) exits on
 * its own without aborting while they load.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hasModelFiles, resolveModelCacheDir } from '../../src/embeddings/onnx/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const distPool = `${root}dist/embeddings/worker-pool.js`;
const distOnnx = `${root}dist/embeddings/onnx/index.js`;
const chattyWorker = fileURLToPath(new URL('../fixtures/workers/chatty-worker.mjs', import.meta.url));
const built = existsSync(distPool) && existsSync(`${root}dist/embeddings/onnx/onnx-worker.js`);
const needsBuild = built ? '' : ' (skipped: needs the compiled workers, run `npm run build` first)';
const cacheDir = resolveModelCacheDir(process.env, homedir());
const MODEL = 'all-minilm-l6-v2';
const modelSkip = hasModelFiles(cacheDir, MODEL) ? '' : ` (skipped: ${MODEL} is not in ${cacheDir}; run "engram models pull")`;

function runScript(script: string): { status: number | null; stdout: string; stderr: string; ms: number } {
  const started = Date.now();
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr, ms: Date.now() - started };
}

describe.skipIf(!built)(`EmbedderWorkerPool${needsBuild}`, () => {
  it('sends worker console output to stderr, never stdout, and lets the process exit with idle workers', () => {
    const script = `
      const { EmbedderWorkerPool } = await import(${JSON.stringify(pathToFileURL(distPool).href)});
      const pool = new EmbedderWorkerPool({
        size: 2,
        workerUrl: new URL(${JSON.stringify(pathToFileURL(chattyWorker).href)}),
        workerData: { chattyWorker: true },
        label: 'chatty',
        missingScriptHint: 'build first',
        loadFailedHint: 'cannot load',
      });
      await pool.warmUp();
      const vectors = await pool.run(['abc', 'de']);
      process.stdout.write(JSON.stringify(Array.from(vectors)) + '\\n');
      // no close(): two idle workers must not keep the process alive`;
    const child = runScript(script);
    expect(child.status, child.stderr).toBe(0);
    expect(child.stdout.trim()).toBe(JSON.stringify([3, 1, 0, 0, 2, 1, 0, 0]));
    expect(child.stderr).toContain('chatty worker: loading (stdout)');
    expect(child.stderr).toContain('chatty worker: loading (stderr)');
    expect(child.stderr).toContain('chatty worker: bytes (stdout)');
    expect(child.stderr).toContain('chatty worker: embedding 2');
    // the timeout is 60 s: a process held open by its workers would run into it
    expect(child.ms).toBeLessThan(30_000);
  });
});

describe.skipIf(!built || modelSkip !== '')(`OnnxEmbedder workers started by a query${needsBuild || modelSkip}`, () => {
  it('embeds the first query on the calling thread, starts the workers, and the process exits on its own, also while they load', () => {
    // Three processes: the first exits right after its query, while the workers it started still load
    // their model (ending a worker inside that native work would abort the process); the others after a
    // second query, which the started workers may serve. None calls close().
    for (const queries of [1, 2, 3]) {
      const script = `
        const { OnnxEmbedder } = await import(${JSON.stringify(pathToFileURL(distOnnx).href)});
        const embedder = OnnxEmbedder.create({ model: ${JSON.stringify(MODEL)}, cacheDir: ${JSON.stringify(cacheDir)}, workers: 2 });
        let vector;
        for (let q = 0; q < ${queries}; q++) {
          [vector] = await embedder.embed(['where did Alice park the car?'], { purpose: 'query' });
          if (q === 0 && ${queries} > 1) await new Promise((resolve) => setTimeout(resolve, 1500));
        }
        console.log(vector.length);`;
      const child = runScript(script);
      expect(child.stderr).not.toContain('terminate called');
      expect(child.status, child.stderr).toBe(0);
      expect(child.stdout.trim()).toBe('384');
      expect(child.ms).toBeLessThan(30_000);
    }
  });
});
