/**
 * Worker-thread entry of the store's HNSW search thread (`ann-search-thread.ts`): maps the published
 * files it is asked about (the pages are the same as the store thread's: one memory map of one file)
 * and searches them, so a large scope's search runs while the store's thread serves the recall's other
 * channels. Requests come from the parent; replies go, by request id, to the port in `workerData.replies`.
 * This module does its work on load: it is an entry point.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { loadUsearch } from './ann-library.js';
import { mapAnnFile, searchMapped, type AnnBaseHits, type AnnFileTarget, type MappedAnn } from './ann-mapped.js';

export type AnnSearchRequest =
  | { readonly type: 'open'; readonly id: number; readonly target: AnnFileTarget }
  | { readonly type: 'search'; readonly id: number; readonly target: AnnFileTarget; readonly query: Float32Array; readonly asked: number }
  | { readonly type: 'forget'; readonly indexPath: string };

export type AnnSearchReply =
  | { readonly id: number; readonly ok: true; readonly hits?: AnnBaseHits }
  | { readonly id: number; readonly ok: false; readonly message: string };

/** Files mapped here, by index path. */
const mapped = new Map<string, MappedAnn>();

function mappedFile(target: AnnFileTarget): MappedAnn {
  let file = mapped.get(target.indexPath);
  if (file === undefined) {
    const library = loadUsearch();
    if (library === undefined) throw new Error('usearch does not load in the search thread');
    file = mapAnnFile(library, target);
    mapped.set(target.indexPath, file);
  }
  return file;
}

function answer(request: Exclude<AnnSearchRequest, { type: 'forget' }>): AnnSearchReply {
  try {
    const file = mappedFile(request.target);
    if (request.type === 'open') return { id: request.id, ok: true };
    return { id: request.id, ok: true, hits: searchMapped(file, request.query, request.asked) };
  } catch (error) {
    return { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

const replies = (workerData as { replies?: MessagePort } | null)?.replies;
if (parentPort !== null && replies !== undefined) {
  const port = replies;
  parentPort.on('message', (request: AnnSearchRequest) => {
    if (request.type === 'forget') {
      mapped.get(request.indexPath)?.vectors?.close();
      mapped.delete(request.indexPath);
      return;
    }
    const reply = answer(request);
    // the hits' arrays are made for this reply: handed over, not copied
    const buffers =
      reply.ok && reply.hits !== undefined ? [reply.hits.rowids.buffer as ArrayBuffer, reply.hits.scores.buffer as ArrayBuffer] : [];
    port.postMessage(reply, buffers);
  });
}
