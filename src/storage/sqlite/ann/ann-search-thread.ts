/**
 * The store's HNSW search thread: one worker that searches large scopes' published files, so that a
 * recall's vector search (14 ms at a million vectors) runs while the store's own thread answers the
 * lexical channels (~9-18 ms there) instead of after them. The store's thread keeps everything else:
 * which file is current, the change-log delta, the post-filter. A file is searched here only once the
 * worker has mapped it (`open`, in the background after the scope's first search), so the first
 * searches of a process never wait for it; when the worker cannot be started or fails, searches stay
 * on the store's thread. Replies come on a port of their own, which `ready` also reads synchronously: a
 * caller that keeps its thread busy (back-to-back recalls that never yield to the event loop) still
 * learns that a file was mapped.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { resolveWorkerScript } from '../../../worker-script.js';
import type { AnnBaseHits, AnnFileTarget } from './ann-mapped.js';
import type { AnnSearchReply, AnnSearchRequest } from './ann-search-worker.js';
import type { SqliteStoreLogger } from '../sqlite-store-config.js';

/** A file the worker was asked to map: its state, and when the mapping settled (whether it can be searched). */
interface MappedFile {
  state: 'opening' | 'open' | 'failed';
  readonly opened: Promise<boolean>;
}

interface Job {
  readonly resolve: (reply: AnnSearchReply) => void;
  readonly reject: (error: Error) => void;
  /** A search someone awaits (keeps the process alive), not a background open. */
  readonly awaited: boolean;
}

export class AnnSearchThread {
  readonly #logger: SqliteStoreLogger;
  readonly #jobs = new Map<number, Job>();
  /** Files by index path: being mapped by the worker, mapped, or refused by it. */
  readonly #files = new Map<string, MappedFile>();
  #worker: { readonly thread: Worker; readonly replies: MessagePort } | undefined;
  #awaited = 0;
  #next = 1;
  /** Why the thread is not used (it did not start, or it failed). */
  #broken: string | undefined;
  #closed = false;
  #searches = 0;

  constructor(logger: SqliteStoreLogger) {
    this.#logger = logger;
  }

  /** Searches the thread ran (for benchmarks and tests). */
  get searches(): number {
    return this.#searches;
  }

  /**
   * Whether a search sent to the worker has not been answered yet (its replies so far are handled now,
   * without waiting for the event loop: an answer already sent counts as answered).
   */
  get searching(): boolean {
    this.#drain();
    for (const job of this.#jobs.values()) if (job.awaited) return true;
    return false;
  }

  /** Whether the worker has a file mapped (and has not failed). */
  get mapped(): boolean {
    if (this.#broken !== undefined || this.#closed) return false;
    this.#drain();
    for (const file of this.#files.values()) if (file.state === 'open') return true;
    return false;
  }

  /** Whether searches of `target`'s file can run here now; if not, it is mapped in the background for later ones. */
  ready(target: AnnFileTarget): boolean {
    if (this.#broken !== undefined || this.#closed) return false;
    this.#drain();
    const file = this.#files.get(target.indexPath);
    if (file === undefined) this.#open(target);
    return file?.state === 'open';
  }

  /** Maps `target`'s file in the worker now; resolves whether searches of it can run here. */
  async whenMapped(target: AnnFileTarget): Promise<boolean> {
    if (this.#broken !== undefined || this.#closed) return false;
    const file = this.#files.get(target.indexPath) ?? this.#open(target);
    if (file.state !== 'opening') return file.state === 'open';
    // awaited now: the reply must keep the process alive, as a search's does
    this.#hold(+1);
    try {
      return await file.opened;
    } finally {
      this.#hold(-1);
    }
  }

  /** Searches `target`'s file (call `ready` first); rejects when the thread fails meanwhile. */
  async search(target: AnnFileTarget, query: Float32Array, asked: number): Promise<AnnBaseHits> {
    const reply = await this.#post((id) => ({ type: 'search', id, target, query, asked }), true);
    if (!reply.ok) throw new Error(reply.message);
    if (reply.hits === undefined) throw new Error('the search thread answered a search without hits');
    this.#searches += 1;
    return reply.hits;
  }

  /** Unmaps a file the store no longer searches (a newer one was published, or the scope was dropped). */
  forget(indexPath: string): void {
    if (!this.#files.delete(indexPath)) return;
    this.#worker?.thread.postMessage({ type: 'forget', indexPath } satisfies AnnSearchRequest);
  }

  /** Stops the worker; pending searches reject (their callers search on their own thread). */
  async close(): Promise<void> {
    this.#closed = true;
    const worker = this.#worker;
    this.#worker = undefined;
    this.#failAll(new Error('the store was closed'));
    if (worker !== undefined) {
      worker.replies.close();
      await worker.thread.terminate();
    }
  }

  #open(target: AnnFileTarget): MappedFile {
    const opened = this.#post((id) => ({ type: 'open', id, target }), false).then(
      (reply) => {
        if (this.#files.get(target.indexPath) !== file) return false;
        file.state = reply.ok ? 'open' : 'failed';
        if (!reply.ok) this.#logger.warn(`the vector search thread could not map ${target.indexPath}: ${reply.message}`);
        return reply.ok;
      },
      () => false,
    );
    const file: MappedFile = { state: 'opening', opened };
    this.#files.set(target.indexPath, file);
    return file;
  }

  #post(request: (id: number) => Exclude<AnnSearchRequest, { type: 'forget' }>, awaited: boolean): Promise<AnnSearchReply> {
    const worker = this.#started();
    if (worker === undefined) return Promise.reject(new Error(this.#broken ?? 'the search thread is closed'));
    const id = this.#next++;
    return new Promise<AnnSearchReply>((resolve, reject) => {
      this.#jobs.set(id, { resolve, reject, awaited });
      if (awaited) this.#hold(+1);
      worker.thread.postMessage(request(id));
    });
  }

  #settle(id: number): Job | undefined {
    const job = this.#jobs.get(id);
    if (job === undefined) return undefined;
    this.#jobs.delete(id);
    if (job.awaited) this.#hold(-1);
    return job;
  }

  /** Counts a caller awaiting a reply (+1) or done (-1): the replies' port keeps the process alive while any waits. */
  #hold(change: 1 | -1): void {
    this.#awaited = Math.max(0, this.#awaited + change);
    if (this.#awaited === 0) this.#worker?.replies.unref();
    else if (change > 0 && this.#awaited === 1) this.#worker?.replies.ref();
  }

  /** Handles the replies already sent, without waiting for the event loop. */
  #drain(): void {
    const replies = this.#worker?.replies;
    if (replies === undefined) return;
    for (let message = receiveMessageOnPort(replies); message !== undefined; message = receiveMessageOnPort(replies))
      this.#settle((message.message as AnnSearchReply).id)?.resolve(message.message as AnnSearchReply);
  }

  #started(): { readonly thread: Worker; readonly replies: MessagePort } | undefined {
    if (this.#worker !== undefined || this.#broken !== undefined || this.#closed) return this.#worker;
    try {
      const { port1: replies, port2: replyPort } = new MessageChannel();
      const thread = new Worker(resolveWorkerScript(import.meta.url, ['storage', 'sqlite', 'ann'], 'ann-search-worker.js'), {
        workerData: { replies: replyPort },
        transferList: [replyPort],
      });
      // idle, neither may keep a finished process alive (an awaited search refs the replies' port)
      thread.unref();
      replies.on('message', (reply: AnnSearchReply) => this.#settle(reply.id)?.resolve(reply));
      replies.unref();
      thread.on('error', (error) => this.#fail(`it failed: ${error.message}`));
      thread.on('exit', (code) => this.#fail(`it exited (code ${code})`));
      this.#worker = { thread, replies };
      return this.#worker;
    } catch (error) {
      this.#broken = `it did not start: ${error instanceof Error ? error.message : String(error)}`;
      this.#logger.info(`large scopes' vector searches run on the store's thread (${this.#broken})`);
      return undefined;
    }
  }

  #fail(reason: string): void {
    if (this.#closed || this.#broken !== undefined) return;
    this.#broken = reason;
    this.#worker?.replies.close();
    this.#worker = undefined;
    this.#files.clear();
    this.#logger.warn(`the vector search thread stopped (${reason}); large scopes are searched on the store's thread`);
    this.#failAll(new Error(`the vector search thread stopped (${reason})`));
  }

  #failAll(error: Error): void {
    for (const id of [...this.#jobs.keys()]) this.#settle(id)?.reject(error);
    this.#awaited = 0;
  }
}
