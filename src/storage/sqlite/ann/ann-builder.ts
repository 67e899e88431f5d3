/**
 * Background builds of per-scope ANN index files: at most one per scope in this process, and one
 * across processes thanks to the scope's lock file (a process that finds it taken simply waits for
 * the other's file). Builds run in a worker thread, or on this thread when the compiled worker does
 * not exist (running from TypeScript sources). A failed build is logged and retried minutes later;
 * meanwhile exact search serves the scope.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { buildAnnIndex, type AnnBuildRequest, type AnnBuildResult } from './ann-build.js';
import type { AnnBuildReply } from './ann-build-worker.js';
import type { AnnFiles } from './ann-files.js';
import type { UsearchModule } from './ann-library.js';
import type { SqliteStoreLogger } from '../sqlite-store-config.js';

export interface AnnBuilderOptions {
  /** The HNSW library for builds on this thread (loaded when a build needs it). */
  readonly library: () => UsearchModule | undefined;
  readonly files: AnnFiles;
  readonly logger: SqliteStoreLogger;
  /** The request of every build, but for its scope. */
  readonly request: Omit<AnnBuildRequest, 'scope'>;
  /** Called after a build of `scope` published its file. */
  readonly onBuilt: (scope: string) => void;
}

interface BuildRun {
  readonly result: Promise<AnnBuildResult>;
  stop(): void;
  /** Keeps the process alive until the build ends (someone awaits it). */
  keepAlive(): void;
}

/** A failed build is retried after this long. */
const RETRY_MS = 5 * 60_000;
const WORKER_URL = new URL('./ann-build-worker.js', import.meta.url);

export class AnnBuilder {
  readonly #options: AnnBuilderOptions;
  readonly #running = new Map<string, { done: Promise<void>; run: BuildRun }>();
  readonly #failures = new Map<string, number>();
  #closed = false;

  constructor(options: AnnBuilderOptions) {
    this.#options = options;
  }

  isRunning(scope: string): boolean {
    return this.#running.has(scope);
  }

  /** Whether the last build of `scope` in this process failed. */
  failed(scope: string): boolean {
    return this.#failures.has(scope);
  }

  /** Starts a build of `scope` unless one runs (here or in another process) or one failed recently. */
  start(scope: string, reason: string): void {
    if (this.#closed || this.#running.has(scope)) return;
    const failedAt = this.#failures.get(scope);
    if (failedAt !== undefined && Date.now() - failedAt < RETRY_MS) return;
    const release = this.#options.files.tryLock(scope);
    if (release === undefined) return;
    const { logger } = this.#options;
    logger.info(`building the vector index of scope "${scope}" in the background: ${reason}`, { scope });
    const request: AnnBuildRequest = { ...this.#options.request, scope };
    const run = existsSync(fileURLToPath(WORKER_URL)) ? runInWorker(request) : this.#runInProcess(request);
    const done = run.result
      .then(
        (result) => {
          this.#failures.delete(scope);
          this.#options.onBuilt(scope);
          logger.info(
            `built the vector index of scope "${scope}" (${result.kind}, ${result.manifest.count} vectors, ${result.seconds.toFixed(1)} s)`,
            {
              scope,
              kind: result.kind,
              reason: result.reason,
              count: result.manifest.count,
              seconds: result.seconds,
            },
          );
        },
        (error: unknown) => {
          this.#failures.set(scope, Date.now());
          if (!this.#closed) {
            logger.warn(`building the vector index of scope "${scope}" failed; exact search serves it meanwhile`, {
              scope,
              error: error instanceof Error ? error.message : String(error),
            });
          }
        },
      )
      .finally(() => {
        release();
        this.#running.delete(scope);
      });
    this.#running.set(scope, { done, run });
  }

  /** Resolves when the running build of `scope` (if any) ends, keeping the process alive meanwhile. */
  async wait(scope: string): Promise<void> {
    const running = this.#running.get(scope);
    if (running === undefined) return;
    running.run.keepAlive();
    await running.done;
  }

  /** Stops every running build and waits for them to end (their locks are released). */
  async close(): Promise<void> {
    this.#closed = true;
    const running = [...this.#running.values()];
    for (const { run } of running) run.stop();
    await Promise.allSettled(running.map(({ done }) => done));
  }

  #runInProcess(request: AnnBuildRequest): BuildRun {
    let stopped = false;
    const library = this.#options.library();
    const result =
      library === undefined ? Promise.reject(new Error('usearch does not load')) : buildAnnIndex(request, library, () => stopped);
    return { result, stop: () => (stopped = true), keepAlive: () => undefined };
  }
}

function runInWorker(request: AnnBuildRequest): BuildRun {
  const worker = new Worker(WORKER_URL, { workerData: request });
  // a build must not keep a finished process alive; a killed build is redone later
  worker.unref();
  const result = new Promise<AnnBuildResult>((resolve, reject) => {
    worker.once('message', (reply: AnnBuildReply) => (reply.ok ? resolve(reply.result) : reject(new Error(reply.message))));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the index build worker exited (code ${code})`)));
  });
  return { result, stop: () => void worker.terminate(), keepAlive: () => worker.ref() };
}
