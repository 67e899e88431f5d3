import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { EngramError } from '../../core/errors.js';
import type { OnnxModelConfig } from './onnx-model.js';
import type { OnnxWorkerData, OnnxWorkerReply, OnnxWorkerRequest } from './onnx-worker-messages.js';

interface Job {
  readonly id: number;
  readonly texts: readonly string[];
  resolve(vectors: Float32Array): void;
  reject(error: unknown): void;
}

interface Slot {
  readonly worker: Worker;
  ready: boolean;
  job: Job | null;
}

const MAX_CONSECUTIVE_CRASHES = 3;

/**
 * A fixed set of worker threads, each with its own ONNX session, taking batches first come first
 * served. Workers start on the first job and keep the event loop alive only while they have work.
 *
 * @example
 * ```ts
 * const pool = new OnnxWorkerPool({ size: 2, model: { directory, dimension: 384, pooling: 'cls', maxTokens: 512 } });
 * const flat = await pool.run(['first text', 'second text']);
 * await pool.close();
 * ```
 */
export class OnnxWorkerPool {
  readonly size: number;
  readonly #model: OnnxModelConfig;
  readonly #workerUrl: URL;
  readonly #slots: Slot[] = [];
  readonly #queue: Job[] = [];
  #nextId = 1;
  #crashes = 0;
  #closed = false;

  constructor(options: { size: number; model: OnnxModelConfig; workerUrl: URL }) {
    this.size = options.size;
    this.#model = options.model;
    this.#workerUrl = options.workerUrl;
  }

  /** Workers that have loaded the model and have no job right now. */
  get idleWorkers(): number {
    return this.#slots.filter((slot) => slot.ready && slot.job === null).length;
  }

  /** Embeds one batch on the next free worker. Rejects with `EngramError('EMBEDDING_FAILED')` on any failure. */
  run(texts: readonly string[]): Promise<Float32Array> {
    if (this.#closed) return Promise.reject(closedError());
    return new Promise<Float32Array>((resolve, reject) => {
      this.#queue.push({ id: this.#nextId++, texts, resolve, reject });
      while (this.#slots.length < this.size) this.#spawn();
      this.#pump();
    });
  }

  /** Rejects queued jobs and terminates the workers. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.reject(closedError());
    const slots = this.#slots.splice(0);
    for (const slot of slots) slot.job?.reject(closedError());
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  #spawn(): void {
    const workerData: OnnxWorkerData = { engramOnnxWorker: true, model: this.#model };
    // stdout: true keeps worker console output off our stdout (the MCP channel); it goes to stderr.
    const worker = new Worker(this.#workerUrl, { workerData, stdout: true, execArgv: [] });
    worker.stdout.pipe(process.stderr, { end: false });
    const slot: Slot = { worker, ready: false, job: null };
    this.#slots.push(slot);
    worker.on('message', (reply: OnnxWorkerReply) => this.#onReply(slot, reply));
    worker.on('error', (error) => this.#onCrash(slot, error));
    worker.on('exit', (code) => {
      if (!this.#closed && this.#slots.includes(slot)) this.#onCrash(slot, new Error(`worker exited with code ${code}`));
    });
  }

  #onReply(slot: Slot, reply: OnnxWorkerReply): void {
    if (reply.type === 'ready') {
      slot.ready = true;
      this.#crashes = 0;
    } else if (reply.type === 'load-failed') {
      this.#failAll(new Error(reply.message), `An ONNX worker could not load the model in ${this.#model.directory}; run "engram models pull" or use { workers: 0 }.`);
      return;
    } else {
      const job = slot.job;
      slot.job = null;
      if (job !== null && job.id === reply.id) {
        if (reply.type === 'result') job.resolve(reply.vectors);
        else job.reject(new EngramError('EMBEDDING_FAILED', 'An ONNX worker failed to embed a batch.', { cause: new Error(reply.message) }));
      }
    }
    this.#pump();
  }

  #onCrash(slot: Slot, error: unknown): void {
    const index = this.#slots.indexOf(slot);
    if (index === -1) return;
    this.#slots.splice(index, 1);
    void slot.worker.terminate();
    slot.job?.reject(new EngramError('EMBEDDING_FAILED', 'An ONNX worker thread stopped while embedding.', { cause: error }));
    this.#crashes += 1;
    if (this.#crashes >= MAX_CONSECUTIVE_CRASHES) {
      this.#failAll(error, 'The ONNX worker threads keep stopping; use { workers: 0 } to embed in-process.');
      return;
    }
    if (this.#queue.length > 0) while (this.#slots.length < this.size) this.#spawn();
    this.#pump();
  }

  #failAll(cause: unknown, message: string): void {
    const error = new EngramError('EMBEDDING_FAILED', message, { cause });
    for (const job of this.#queue.splice(0)) job.reject(error);
    for (const slot of this.#slots.splice(0)) {
      slot.job?.reject(error);
      void slot.worker.terminate();
    }
    this.#crashes = 0;
  }

  #pump(): void {
    for (const slot of this.#slots) {
      if (this.#queue.length === 0) break;
      if (!slot.ready || slot.job !== null) continue;
      const job = this.#queue.shift() as Job;
      slot.job = job;
      const request: OnnxWorkerRequest = { id: job.id, texts: job.texts };
      slot.worker.postMessage(request);
    }
    // Busy or starting workers keep the process alive; idle ones must not block exit.
    for (const slot of this.#slots) {
      if (slot.job !== null || (!slot.ready && this.#queue.length > 0)) slot.worker.ref();
      else slot.worker.unref();
    }
  }
}

/**
 * The compiled worker script: `onnx-worker.js` beside this module, or under the package's `dist/`
 * when running from TypeScript sources. Undefined when neither exists (the embedder then runs in-process).
 */
export function resolveOnnxWorkerUrl(): URL | undefined {
  const beside = new URL('./onnx-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  const folder = dirname(fileURLToPath(import.meta.url));
  const sourceFolder = join('src', 'embeddings', 'onnx');
  if (!folder.endsWith(sourceFolder)) return undefined;
  const twin = join(folder.slice(0, folder.length - sourceFolder.length), 'dist', 'embeddings', 'onnx', 'onnx-worker.js');
  return existsSync(twin) ? pathToFileURL(twin) : undefined;
}

function closedError(): EngramError {
  return new EngramError('EMBEDDING_FAILED', 'The embedder was closed; create a new one to embed again.');
}
