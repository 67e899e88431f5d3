/**
 * Worker-thread entry that runs one `buildAnnIndex`, so building a large scope's index never blocks
 * the store's event loop. Started by `AnnIndex` with the request as `workerData`; replies with one
 * `AnnBuildReply` message. This module does its work on load because it is an entry point.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildAnnIndex, type AnnBuildRequest, type AnnBuildResult } from './ann-build.js';
import { loadUsearch } from './ann-library.js';

export type AnnBuildReply = { ok: true; result: AnnBuildResult } | { ok: false; message: string };

async function run(port: NonNullable<typeof parentPort>): Promise<void> {
  let reply: AnnBuildReply;
  try {
    const library = loadUsearch();
    if (library === undefined) throw new Error('usearch does not load in the worker thread');
    reply = { ok: true, result: await buildAnnIndex(workerData as AnnBuildRequest, library) };
  } catch (error) {
    reply = { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
}

if (parentPort !== null) await run(parentPort);
