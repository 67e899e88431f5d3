/**
 * A long unstored tail of a session (the first Stop after installing the hooks in a long session, a
 * lost cursor, long pasted turns) is stored in batches far below the server's limits (5,000 turns, an
 * 8 MiB body), each batch moving the cursor: nothing stays stuck, and a failure part-way keeps what was
 * stored. In-process: the hook without a server, and the real serve app on a loopback port.
 */
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engram } from '../../src/index.js';
import { createServeApp } from '../../src/interfaces/cli/serve/serve-app.js';
import { writeDiscovery } from '../../src/interfaces/hooks/discovery.js';
import { cursorKey } from '../../src/interfaces/hooks/handlers.js';
import { INGEST_BATCH_BYTES, INGEST_BATCH_TURNS } from '../../src/interfaces/hooks/ingest-batches.js';
import { runHook } from '../../src/interfaces/hooks/run-hook.js';
import { tempDir } from '../helpers/temp.js';

const SCOPE = 'dev/projects/shop';
const SESSION = 'long-session';
const TOKEN = 'tok_0123456789abcdefghijklmnopqrstuv';

let dir: string;
let cleanup: () => void;
let db: string;
let transcript: string;
const closers: Array<() => Promise<void>> = [];

beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  db = join(dir, 'engram.db');
  transcript = join(dir, 'transcript.jsonl');
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  cleanup();
});

/** A transcript of `count` turns (user and assistant in turn), each `text(i)`. */
function writeTranscript(count: number, text: (i: number) => string): void {
  const lines = Array.from({ length: count }, (_, i) => {
    const role = i % 2 === 0 ? 'user' : 'assistant';
    const content = role === 'user' ? text(i) : [{ type: 'text', text: text(i) }];
    const timestamp = new Date(Date.parse('2025-09-01T10:00:00Z') + i * 1000).toISOString();
    return JSON.stringify({ type: role, uuid: `m-${i}`, sessionId: SESSION, timestamp, message: { role, content } });
  });
  writeFileSync(transcript, `${lines.join('\n')}\n`);
}

function stop() {
  const stdin = JSON.stringify({ session_id: SESSION, transcript_path: transcript, cwd: dir, hook_event_name: 'Stop' });
  return runHook('stop', stdin, { scopes: [SCOPE], db, openEngine: () => Engram.open({ path: db, embedder: 'hash' }) });
}

/** The messages stored (a long one is kept in chunks: counted once) and the session's cursor. */
async function storedState(engram: Engram): Promise<{ episodes: number; cursor: unknown }> {
  const records = await engram.store.listMemories({ scopes: [SCOPE], layers: ['episodic'], limit: 10_000 });
  const messages = new Set(records.flatMap((r) => r.provenance.sources.map((s) => (s as { messageId?: string }).messageId)));
  const cursor = (await engram.store.getState(SCOPE, cursorKey(SESSION)))?.value as { lastUuid?: string } | undefined;
  return { episodes: messages.size, cursor: cursor?.lastUuid };
}

describe('a long unstored tail', () => {
  it(
    `over 5,000 turns is stored by the hook that opens the store itself, in batches of ${INGEST_BATCH_TURNS}`,
    { timeout: 300_000 },
    async () => {
      writeTranscript(5_002, (i) => `note ${i}`);
      const outcome = await stop();
      expect(outcome.detail).toMatchObject({
        stored: 5_002,
        unchanged: 0,
        lastUuid: 'm-5001',
        batches: Math.ceil(5_002 / INGEST_BATCH_TURNS),
      });
      const engram = await Engram.open({ path: db, embedder: 'hash' });
      try {
        expect(await storedState(engram)).toEqual({ episodes: 5_002, cursor: 'm-5001' });
      } finally {
        await engram.close();
      }
    },
  );

  it(
    'over 8 MiB goes to the server in batches under its body limit; a failure part-way keeps what was stored',
    { timeout: 300_000 },
    async () => {
      // 8 turns of pasted binary output, 190,000 control characters each: 1.1 MB each as JSON, ~9 MB in
      // one request, which the server would refuse (413); cheaper to store than as many CJK characters
      const pasted = '\u0001'.repeat(190_000);
      writeTranscript(8, (i) => `turn ${i}. ${pasted}`);
      const engram = await Engram.open({ path: db, embedder: 'hash' });
      closers.push(() => engram.close());
      const app = createServeApp({ engram, scopes: [], auth: 'auto', hookToken: TOKEN });
      const bodies: number[] = [];
      let failAt = 2; // the server fails on the second ingest request (then works again)
      const running = serve({
        hostname: '127.0.0.1',
        port: 0,
        fetch: async (request) => {
          if (!request.url.endsWith('/hooks/ingest')) return app.fetch(request);
          bodies.push(Number(request.headers.get('content-length')));
          if (bodies.length === failAt)
            return Response.json({ error: { code: 'STORAGE_UNAVAILABLE', message: 'gone for a moment' } }, { status: 503 });
          return app.fetch(request);
        },
      });
      await new Promise<void>((resolve) => running.once('listening', () => resolve()));
      closers.push(() => new Promise<void>((resolve) => running.close(() => resolve())));
      const url = `http://127.0.0.1:${(running.address() as AddressInfo).port}`;
      writeDiscovery({ url, pid: process.pid, db, startedAt: new Date().toISOString(), hookToken: TOKEN });

      await expect(stop()).rejects.toThrow(/answered 503/);
      // the first batch is stored and the cursor stands after it
      const first = await storedState(engram);
      expect(first.episodes).toBeGreaterThan(0);
      expect(first.episodes).toBeLessThan(8);
      expect(first.cursor).toBe(`m-${first.episodes - 1}`);

      failAt = 0;
      const outcome = await stop();
      expect(outcome.detail).toMatchObject({ stored: 8 - first.episodes, unchanged: 0, lastUuid: 'm-7', server: url });
      expect(await storedState(engram)).toEqual({ episodes: 8, cursor: 'm-7' });
      for (const bytes of bodies) expect(bytes).toBeLessThanOrEqual(INGEST_BATCH_BYTES + 1_000);
      expect(bodies.length).toBeGreaterThanOrEqual(Math.ceil(9_000_000 / INGEST_BATCH_BYTES) + 1); // and the failed one
    },
  );
});
