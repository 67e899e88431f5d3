/**
 * Worker threads for embedders whose model runs on the calling thread otherwise (USE-lite, ONNX): one
 * pool implementation, parameterised by the worker script, its `workerData` and the words its errors use.
 */
import { Worker } from 'node:worker_threads';
import { EngramError } from '../core/errors.js';

/** A request from the pool to a worker: embed these prepared texts. */
export interface EmbedderWorkerRequest {
  readonly id: number;
  readonly texts: readonly string[];
}

/** A worker's message to the pool: ready after loading, failed to load, one job's outcome, or console output. */
export type EmbedderWorkerReply =
  | { readonly type: 'log'; readonly text: string }
  | { readonly type: 'ready' }
  | { readonly type: 'load-failed'; readonly message: string }
  | { readonly type: 'result'; readonly id: number; readonly vectors: Float32Array }
  | { readonly type: 'job-failed'; readonly id: number; readonly message: string };

/** Options of {@link EmbedderWorkerPool}. */
export interface EmbedderWorkerPoolOptions {
  /** Number of worker threads, at least 1. Each loads its own copy of the model. */
  readonly size: number;
  /** The compiled worker script, or a function that finds it (called when the first worker starts; may throw). */
  readonly workerUrl: URL | (() => URL);
  /** What every worker starts with (its marker keeps the script inert when merely imported). */
  readonly workerData: unknown;
  /** The model's name in messages, e.g. "USE-lite" or "ONNX". */
  readonly label: string;
  /** How to fix a worker script that cannot be found. */
  readonly missingScriptHint: string;
  /** How to fix a model that a worker could not load. */
  readonly loadFailedHint: string;
}

interface Job {
  readonly id: number;
  readonly texts: readonly string[];
  resolve(vectors: Float32Array): void;
  reject(error: unknown): void;
}

interface Slot {
  readonly worker: Worker;
  ready: boolean;
  /** The worker has answered its load (ready or failed): it is no longer inside the model's loading. */
  loaded: boolean;
  job: Job | null;
}

const MAX_CONSECUTIVE_CRASHES = 3;
/** How long `close()` waits for a busy worker's answer before terminating it anyway. */
const QUIESCE_MS = 15_000;

/**
 * Terminates a slot's worker, once it is out of native work when it was loading its model or running a
 * batch (see `close()`).
 */
async function retire(slot: Slot): Promise<void> {
  if (!slot.loaded || slot.job !== null) await quiesced(slot.worker);
  await slot.worker.terminate();
}

/**
 * Resolves at the worker's next answer (its model loaded or failed, its batch done; not its console
 * output, which may come while it is still inside native work) or exit, or after QUIESCE_MS.
 */
function quiesced(worker: Worker): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      worker.off('message', answered);
      worker.off('exit', done);
      resolve();
    };
    const answered = (reply: EmbedderWorkerReply): void => {
      if (reply.type !== 'log') done();
    };
    const timer = setTimeout(done, QUIESCE_MS);
    timer.unref();
    worker.on('message', answered);
    worker.on('exit', done);
  });
}

/**
 * A fixed set of worker threads, each running one copy of a model, that embed jobs (batches of prepared
 * texts) in parallel. Workers start on the first job (or `start()`, `warmUp()`), take jobs first come
 * first served, keep the event loop alive only while they load or have work, and send their console
 * output to stderr, never stdout.
 *
 * @example
 * ```ts
 * const pool = new EmbedderWorkerPool({ size: 2, workerUrl, workerData: { engramUseWorker: true }, label: 'USE-lite', missingScriptHint: '…', loadFailedHint: '…' });
 * const flat = await pool.run(['first text', 'second text']); // 2 × dimension values
 * await pool.close();
 * ```
 */
export class EmbedderWorkerPool {
  readonly size: number;
  readonly #options: EmbedderWorkerPoolOptions;
  readonly #slots: Slot[] = [];
  readonly #queue: Job[] = [];
  readonly #readyWaiters: Array<{ resolve(): void; reject(error: unknown): void }> = [];
  #nextId = 1;
  #crashes = 0;
  #closed = false;

  constructor(options: EmbedderWorkerPoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1) {
      throw new EngramError('INVALID_INPUT', `A worker pool needs a whole number of workers ≥ 1, got ${String(options.size)}.`);
    }
    this.size = options.size;
    this.#options = options;
  }

  /** Workers that have loaded the model and have no job right now. */
  get idleWorkers(): number {
    return this.#slots.filter((slot) => slot.ready && slot.job === null).length;
  }

  /**
   * Embeds one batch on the next free worker; resolves with `texts.length × dimension` values in order.
   * Rejects with `EngramError('EMBEDDING_FAILED')` if the workers cannot start, the job fails, its worker
   * dies, or the pool is closed before the job ran.
   */
  run(texts: readonly string[]): Promise<Float32Array> {
    if (this.#closed) return Promise.reject(closedError());
    return new Promise<Float32Array>((resolve, reject) => {
      this.#queue.push({ id: this.#nextId++, texts, resolve, reject });
      this.#ensureWorkers();
      this.#pump();
    });
  }

  /**
   * Starts the workers that are not running yet, without waiting for them: the caller embeds this job
   * on its own thread, and later ones find a worker ready. No-op once closed.
   */
  start(): void {
    // called on every recall query: nothing to do once every worker was started
    if (this.#closed || this.#slots.length >= this.size) return;
    this.#ensureWorkers();
    this.#pump();
  }

  /** Starts every worker and waits until each has loaded the model. */
  warmUp(): Promise<void> {
    if (this.#closed) return Promise.reject(closedError());
    return new Promise<void>((resolve, reject) => {
      this.#readyWaiters.push({ resolve, reject });
      this.#ensureWorkers();
      this.#pump();
    });
  }

  /**
   * Rejects queued and running jobs at once, then terminates the workers. A worker still loading its
   * model or running a batch is inside native code (onnxruntime): terminating it then aborts the whole
   * process when that work completes into the torn-down thread (`terminate called after throwing an
   * instance of 'Napi::Error'`), so each such worker is terminated only once it has answered, or after
   * {@link QUIESCE_MS}; a pool that fails (a model that cannot load) retires its workers the same way.
   * Idempotent.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.reject(closedError());
    for (const waiter of this.#readyWaiters.splice(0)) waiter.reject(closedError());
    const slots = this.#slots.splice(0);
    for (const slot of slots) slot.job?.reject(closedError());
    await Promise.all(slots.map((slot) => retire(slot)));
  }

  #ensureWorkers(): void {
    while (this.#slots.length < this.size) if (!this.#spawn()) return;
  }

  /** Starts one worker; false (after failing every waiting job) when there is no script to start. */
  #spawn(): boolean {
    let url: URL;
    try {
      url = typeof this.#options.workerUrl === 'function' ? this.#options.workerUrl() : this.#options.workerUrl;
    } catch (error) {
      this.#failAll(error, this.#options.missingScriptHint);
      return false;
    }
    // stdout: true keeps worker console.log off our stdout (the MCP channel). The worker sends its
    // console output as `log` messages, which go to stderr; its stdio streams are never read: a reading
    // stream keeps the worker's port referenced, so idle workers would keep the process from exiting,
    // and a pipe (Node's own for stderr, unless stderr: true) adds listeners to process.stderr per worker
    // (a blend's members with a few workers each went past Node's limit of ten and printed a leak warning).
    const worker = new Worker(url, {
      workerData: this.#options.workerData,
      stdout: true,
      stderr: true,
      execArgv: workerExecArgv(process.execArgv),
    });
    const slot: Slot = { worker, ready: false, loaded: false, job: null };
    this.#slots.push(slot);
    worker.on('message', (reply: EmbedderWorkerReply) => this.#onReply(slot, reply));
    worker.on('error', (error) => this.#onCrash(slot, error));
    worker.on('exit', (code) => {
      if (!this.#closed && this.#slots.includes(slot)) this.#onCrash(slot, new Error(`worker exited with code ${code}`));
    });
    return true;
  }

  #onReply(slot: Slot, reply: EmbedderWorkerReply): void {
    if (reply.type === 'log') {
      process.stderr.write(reply.text);
      return;
    }
    const { label } = this.#options;
    if (reply.type !== 'result' && reply.type !== 'job-failed') slot.loaded = true;
    if (reply.type === 'ready') {
      slot.ready = true;
      this.#crashes = 0;
    } else if (reply.type === 'load-failed') {
      this.#failAll(new Error(reply.message), this.#options.loadFailedHint);
      return;
    } else {
      const job = slot.job;
      slot.job = null;
      if (job !== null && job.id === reply.id) {
        if (reply.type === 'result') job.resolve(reply.vectors);
        else
          job.reject(
            new EngramError('EMBEDDING_FAILED', `A ${label} worker failed to embed a batch.`, { cause: new Error(reply.message) }),
          );
      }
    }
    this.#pump();
  }

  #onCrash(slot: Slot, error: unknown): void {
    const { label } = this.#options;
    const index = this.#slots.indexOf(slot);
    if (index === -1) return;
    this.#slots.splice(index, 1);
    void slot.worker.terminate();
    slot.job?.reject(new EngramError('EMBEDDING_FAILED', `A ${label} worker thread stopped while embedding.`, { cause: error }));
    this.#crashes += 1;
    if (this.#crashes >= MAX_CONSECUTIVE_CRASHES) {
      this.#failAll(error, `The ${label} worker threads keep stopping; use { workers: 0 } to embed in-process.`);
      return;
    }
    if (this.#queue.length > 0 || this.#readyWaiters.length > 0) this.#ensureWorkers();
    this.#pump();
  }

  /** Rejects every queued job and drops the workers; the next job starts fresh ones. */
  #failAll(cause: unknown, message: string): void {
    const error = new EngramError('EMBEDDING_FAILED', message, { cause });
    for (const job of this.#queue.splice(0)) job.reject(error);
    for (const waiter of this.#readyWaiters.splice(0)) waiter.reject(error);
    for (const slot of this.#slots.splice(0)) {
      slot.job?.reject(error);
      void retire(slot);
    }
    this.#crashes = 0;
  }

  #pump(): void {
    for (const slot of this.#slots) {
      if (this.#queue.length === 0) break;
      if (!slot.ready || slot.job !== null) continue;
      const job = this.#queue.shift() as Job;
      slot.job = job;
      const request: EmbedderWorkerRequest = { id: job.id, texts: job.texts };
      slot.worker.postMessage(request);
    }
    const allReady = this.#slots.length === this.size && this.#slots.every((slot) => slot.ready);
    if (allReady) for (const waiter of this.#readyWaiters.splice(0)) waiter.resolve();
    // Busy and loading workers keep the process alive (a worker ended inside its model's native loading
    // aborts the whole process, see close()); idle ones must not block exit.
    for (const slot of this.#slots) {
      if (slot.job !== null || !slot.loaded) slot.worker.ref();
      else slot.worker.unref();
    }
  }
}

/** The parent's Node flags minus those that only make sense for a main script given as text. */
function workerExecArgv(parentArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < parentArgv.length; i++) {
    const arg = parentArgv[i] as string;
    // `node --input-type=module -e "…"` would otherwise make the worker refuse its own file.
    if (arg.startsWith('--input-type')) continue;
    if (arg === '-e' || arg === '--eval' || arg === '-p' || arg === '--print') {
      i += 1;
      continue;
    }
    if (arg.startsWith('--eval=') || arg.startsWith('--print=')) continue;
    kept.push(arg);
  }
  return kept;
}

function closedError(): EngramError {
  return new EngramError('EMBEDDING_FAILED', 'The embedder was closed; create a new one to embed again.');
}
