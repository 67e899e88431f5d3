/**
 * A recall whose vector search runs on the SQLite store's search thread reads, while it waits for the
 * semantic hits, the neighbours of its strongest lexical candidates (`workWhileWaiting` in recall.ts);
 * the neighbourhood stage then reads only the anchors not read ahead. Its hits are exactly those of a
 * recall on the same file whose vector search runs on its own thread.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngramCore } from '../../src/core/engine.js';
import { ManualClock } from '../../src/core/ports/clock.js';
import type { Store } from '../../src/core/ports/store.js';
import { HashEmbedder } from '../../src/embeddings/hash/hash-embedder.js';
import { loadUsearch } from '../../src/storage/sqlite/ann/ann-library.js';
import { openSqliteStore, type SqliteStore } from '../../src/storage/sqlite/index.js';
import { systemPorts } from '../../src/system-ports.js';
import { storeDistProblem } from '../helpers/store-dist.js';

const usearchProblem = (await loadUsearch()) === undefined ? 'the optional dependency usearch does not load here' : null;
const problem = usearchProblem ?? storeDistProblem(['ann/ann-build-worker.js', 'ann/ann-search-worker.js', 'index.js']);
const skip = problem === null ? '' : ` (skipped: ${problem})`;
const SCOPE = 'acme/ahead';
const START = Date.parse('2025-03-01T09:00:00Z');
const TOPICS = ['kayak', 'espresso', 'violin', 'compiler', 'orchid', 'glacier', 'marathon', 'lantern', 'tapestry', 'falcon'];

/** What happened during one recall, in order: a neighbour read started, the semantic hits arrived. */
type Event = 'neighbours' | 'semantic';

/** `store` with its neighbour reads and the arrival of its vector searches' hits noted in `events`. */
function watched(store: SqliteStore, events: Event[]): Store {
  return new Proxy(store, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      if (property === 'getNeighbours')
        return (...args: unknown[]) => {
          events.push('neighbours');
          return method(...args);
        };
      if (property === 'vectorSearch')
        return async (...args: unknown[]) => {
          const hits = await method(...args);
          events.push('semantic');
          return hits;
        };
      return method;
    },
  }) as unknown as Store;
}

describe('a recall waiting for the search thread', () => {
  let dir: string;
  let path: string;
  const opened: SqliteStore[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-recall-ahead-'));
    path = join(dir, 'engram.db');
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const embedder = new HashEmbedder({ dimension: 64 });
  const open = async (vectorSearchThreadRows: number): Promise<SqliteStore> => {
    const store = await openSqliteStore({
      path,
      embedding: { name: embedder.name, dimension: embedder.dimension },
      vectorIndex: 'hnsw',
      memoryIndexThreshold: 0,
      memoryIndexWarmup: 0,
      vectorSearchThreadRows,
      logger: { info: () => undefined, warn: () => undefined },
    });
    opened.push(store);
    return store;
  };
  const engine = (store: Store): EngramCore =>
    new EngramCore({ store, embedder, clock: new ManualClock(START + 86_400_000), system: systemPorts });

  it.skipIf(problem !== null)(`reads neighbours ahead while the vector search runs elsewhere, with the same hits${skip}`, async () => {
    const threaded = await open(0);
    // 60 conversations of 8 turns each, every turn naming two topics
    const turns = [];
    for (let session = 0; session < 60; session++)
      for (let turn = 0; turn < 8; turn++) {
        const a = TOPICS[(session + turn) % TOPICS.length] as string;
        const b = TOPICS[(session * 3 + turn * 7) % TOPICS.length] as string;
        turns.push({
          scope: SCOPE,
          layer: 'episodic' as const,
          content: `Session ${session}, turn ${turn}: we talked about the ${a} and then the ${b} for a while.`,
          occurredAt: new Date(START + session * 3_600_000 * 5 + turn * 60_000).toISOString(),
          context: { sessionId: `session-${session}` },
        });
      }
    await engine(threaded).remember(turns);
    expect(await threaded.prepareVectorIndex([SCOPE])).toEqual([SCOPE]);
    const own = await open(Infinity);
    expect(await own.prepareVectorIndex([SCOPE])).toEqual([SCOPE]);

    const events: Event[] = [];
    const waiting = engine(watched(threaded, events));
    const alone = engine(own);
    const options = { scopes: [SCOPE], k: 8, trackAccess: false };
    let readAhead = 0;
    for (const [i, topic] of TOPICS.entries()) {
      const query = `what did we say about the ${topic} and the ${TOPICS[(i + 4) % TOPICS.length] as string}?`;
      events.length = 0;
      const hits = (await waiting.recall(query, options)).hits;
      // the neighbour read that started before the semantic hits came back was the one ahead
      if (events.indexOf('neighbours') < events.indexOf('semantic')) readAhead += 1;
      expect(events.filter((e) => e === 'neighbours').length).toBeGreaterThanOrEqual(1);
      expect(hits.length).toBe(8);
      expect(hits).toEqual((await alone.recall(query, options)).hits);
    }
    expect(threaded.annIndexUsage?.threadSearches).toBeGreaterThan(0);
    // the thread's reply needs a turn of the event loop, by which time the lexical records are read
    expect(readAhead).toBeGreaterThan(TOPICS.length / 2);
    expect(own.vectorSearchesAway()).toBe(false);
  });
});
