/**
 * Runs `buildLexicalFile` off the store's event loop: in a worker thread, or on this thread (between
 * chunks, yielding to searches) when the compiled worker does not exist (running from TypeScript
 * sources). One job at a time per store.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { buildLexicalFile, type LexicalBuildRequest, type LexicalBuildResult } from './lexical-build.js';
import type { LexicalBuildReply } from './lexical-build-worker.js';

const WORKER_URL = new URL('./lexical-build-worker.js', import.meta.url);

export interface LexicalBuildRun {
  readonly result: Promise<LexicalBuildResult>;
  /** Stops the job (its result then rejects). */
  stop(): void;
  /** Keeps the process alive until the job ends (someone awaits it). */
  keepAlive(): void;
}

/** Starts one job. */
export function runLexicalBuild(request: LexicalBuildRequest): LexicalBuildRun {
  return existsSync(fileURLToPath(WORKER_URL)) ? runInWorker(request) : runInProcess(request);
}

function runInProcess(request: LexicalBuildRequest): LexicalBuildRun {
  let stopped = false;
  // the pauses do not keep the process alive (a one-shot command may exit mid-build); a caller waiting for it does
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  let done = false;
  const result = buildLexicalFile(request, {
    shouldStop: () => stopped,
    pause: () =>
      new Promise((resolve) => {
        setTimeout(resolve, 0).unref();
      }),
  }).finally(() => {
    done = true;
    clearInterval(keepAlive);
  });
  return {
    result,
    stop: () => (stopped = true),
    keepAlive: () => {
      if (!done) keepAlive ??= setInterval(() => undefined, 60_000);
    },
  };
}

function runInWorker(request: LexicalBuildRequest): LexicalBuildRun {
  const worker = new Worker(WORKER_URL, { workerData: request });
  // a build must not keep a finished process alive; a killed build is redone later
  worker.unref();
  const result = new Promise<LexicalBuildResult>((resolve, reject) => {
    worker.once('message', (reply: LexicalBuildReply) => (reply.ok ? resolve(reply.result) : reject(new Error(reply.message))));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the lexical index worker exited (code ${code})`)));
  });
  return { result, stop: () => void worker.terminate(), keepAlive: () => worker.ref() };
}
