/**
 * The WAL checkpoints of a busy writer, on a thread of their own.
 *
 * SQLite checkpoints inside the COMMIT that takes the write-ahead log past 1,000 pages: it copies the
 * logged pages into the database file and syncs it, on the writer's thread, while the next write waits.
 * A batch of 64 memories logs ~250 pages, so about one commit in four of a steady ingest paid for it:
 * ~10 % of a static-embedder ingest's time in a CPU profile on a 2-core machine; with no checkpoints at
 * all it ran 14 % faster (1,420-1,462 → 1,639-1,647 memories/s, p95 batch 64-69 → 46-48 ms).
 *
 * Once a store's log has grown past `startBytes`, a worker thread with its own connection runs a
 * PASSIVE checkpoint after each commit: one at a time, the commits meanwhile folded into the next. The
 * two talk through shared memory (`wal-checkpoint-slots.ts`): a writer committing in a tight loop may
 * not turn its event loop for seconds (a message would wait that long), so it asks with a store and a
 * notify and reads the results the same way. The writer's own checkpoint stays as a backstop at
 * `BACKSTOP_PAGES`: the log restarts from its beginning only when a checkpoint has caught up with it
 * before a write begins, which a thread one commit behind a writer that never pauses may not reach, so
 * without the backstop the log would grow for as long as the writes go on. If the thread fails, the
 * writer checkpoints as SQLite does.
 */
import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { resolveWorkerScript } from '../../worker-script.js';
import type { SqliteConnection } from './sqlite-connection.js';
import type { SqliteStoreLogger } from './sqlite-store-config.js';
import { CheckpointSlots, CheckpointState } from './wal-checkpoint-slots.js';

/** SQLite's own threshold, in pages. */
const SQLITE_AUTO_CHECKPOINT_PAGES = 1000;
/** The writer's backstop while the thread checkpoints: ~40 MB of 4 KB pages. */
const BACKSTOP_PAGES = 10_000;

/** What the checkpoint thread has done (for tests and benchmarks). */
export interface WalCheckpointUsage {
  /** The thread is running. */
  readonly started: boolean;
  /** Checkpoints it ran. */
  readonly checkpoints: number;
  /** The log's pages at the last checkpoint, and how many of them were in the database file after it. */
  readonly log: number;
  readonly checkpointed: number;
  /** Checkpoints that found another one running (the writer's backstop, or another process's). */
  readonly busy: number;
  /** Checkpoints that failed (left to the next one, or the writer's backstop), and the last one's reason. */
  readonly errors: number;
  readonly lastError?: string;
  /** Why the thread stopped, when it failed; the writer checkpoints itself since. */
  readonly failure?: string;
}

export interface WalCheckpointerOptions {
  /** The database file the writer writes. */
  readonly path: string;
  readonly writer: SqliteConnection;
  /** The log's size in bytes past which the thread starts (0: at the first commit; Infinity: never). */
  readonly startBytes: number;
  readonly logger: SqliteStoreLogger;
}

/**
 * Watches the writer's commits and, past `startBytes` of log, checkpoints on its thread.
 *
 * @example
 * ```ts
 * const checkpointer = new WalCheckpointer({ path, writer, startBytes: 4 * 2 ** 20, logger });
 * // … writes …
 * await checkpointer.close();
 * ```
 */
export class WalCheckpointer {
  readonly #options: WalCheckpointerOptions;
  readonly #slots = new Int32Array(new SharedArrayBuffer(CheckpointSlots.length * Int32Array.BYTES_PER_ELEMENT));
  #worker: Worker | undefined;
  #closed = false;
  #lastError: string | undefined;
  #failure: string | undefined;

  constructor(options: WalCheckpointerOptions) {
    this.#options = options;
    if (options.startBytes !== Infinity) options.writer.onCommit(() => this.#afterCommit());
  }

  get usage(): WalCheckpointUsage {
    const slot = (i: number): number => Atomics.load(this.#slots, i);
    return {
      started: this.#worker !== undefined,
      checkpoints: slot(CheckpointSlots.checkpoints),
      log: slot(CheckpointSlots.log),
      checkpointed: slot(CheckpointSlots.checkpointed),
      busy: slot(CheckpointSlots.busy),
      errors: slot(CheckpointSlots.errors),
      ...(this.#lastError !== undefined ? { lastError: this.#lastError } : {}),
      ...(this.#failure !== undefined ? { failure: this.#failure } : {}),
    };
  }

  /** Stops the thread (after the checkpoint it is running) and gives the writer its own checkpoints back. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#options.writer.onCommit(undefined);
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker === undefined) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.ref();
    Atomics.store(this.#slots, CheckpointSlots.state, CheckpointState.closing);
    Atomics.notify(this.#slots, CheckpointSlots.state);
    await exited;
    this.#restoreWriter();
  }

  #afterCommit(): void {
    if (this.#closed || this.#failure !== undefined) return;
    if (this.#worker === undefined) {
      if (walBytes(this.#options.path) < this.#options.startBytes) return;
      this.#start();
      if (this.#worker === undefined) return;
    }
    // one running and one asked for at most: a request made while one runs is served after it
    Atomics.store(this.#slots, CheckpointSlots.state, CheckpointState.requested);
    Atomics.notify(this.#slots, CheckpointSlots.state);
  }

  #start(): void {
    try {
      const worker = new Worker(resolveWorkerScript(import.meta.url, ['storage', 'sqlite'], 'wal-checkpoint-worker.js'), {
        workerData: { path: this.#options.path, shared: this.#slots.buffer },
      });
      // the thread waits on shared memory between checkpoints: it keeps no process alive
      worker.unref();
      worker.on('message', (message: { error?: string }) => {
        if (typeof message.error === 'string') this.#lastError = message.error;
      });
      worker.on('error', (error: unknown) => this.#fail(describe(error)));
      worker.on('exit', (code) => {
        if (this.#worker === worker) this.#fail(`the checkpoint thread exited (code ${code})`);
      });
      this.#worker = worker;
      this.#options.writer.setAutoCheckpoint(BACKSTOP_PAGES);
    } catch (error) {
      this.#fail(describe(error));
    }
  }

  #fail(message: string): void {
    if (this.#failure !== undefined) return;
    this.#failure = message;
    const worker = this.#worker;
    this.#worker = undefined;
    this.#restoreWriter();
    void worker?.terminate().catch(() => undefined);
    this.#options.logger.warn(`the WAL checkpoint thread stopped (${message}); the writer checkpoints itself`);
  }

  #restoreWriter(): void {
    try {
      this.#options.writer.setAutoCheckpoint(SQLITE_AUTO_CHECKPOINT_PAGES);
    } catch {
      // the writer is closing or closed: nothing to give back
    }
  }
}

/** A thread's error in words: what crosses from a worker may be a plain object, its message missing. */
function describe(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  if (typeof message === 'string' && message.length > 0) return message;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : String(error);
}

/** The log file's size in bytes (0 while there is none). */
function walBytes(path: string): number {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
}
