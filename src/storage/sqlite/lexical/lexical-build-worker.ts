/**
 * Worker-thread entry that runs one `buildLexicalFile`, so building the lexical index of a large store
 * never blocks the store's event loop. Started by `LexicalBuilder` with the request as `workerData`;
 * replies with one `LexicalBuildReply` message, the index's bytes transferred, not copied. This module
 * does its work on load because it is an entry point.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildLexicalFile, type LexicalBuildRequest, type LexicalBuildResult } from './lexical-build.js';

export type LexicalBuildReply = { ok: true; result: LexicalBuildResult } | { ok: false; message: string };

async function run(port: NonNullable<typeof parentPort>): Promise<void> {
  let reply: LexicalBuildReply;
  try {
    reply = { ok: true, result: await buildLexicalFile(workerData as LexicalBuildRequest) };
  } catch (error) {
    reply = { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  const bytes = reply.ok ? reply.result.bytes : undefined;
  port.postMessage(reply, bytes === undefined ? [] : [bytes.buffer as ArrayBuffer]);
}

if (parentPort !== null) await run(parentPort);
