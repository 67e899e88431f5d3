/**
 * A correction written by another engine on the same database (another process: the CLI, a second
 * server) is seen by a running engine's very next recall and context: the index of corrected claims
 * it keeps holds only while the scope's generation of superseded records does. Two engines on one
 * SQLite file, on one PGlite schema, and on one PostgreSQL server schema (when `ENGRAM_TEST_PG_URL` is set).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashEmbedder } from '../../../src/embeddings/hash/index.js';
import { ManualClock } from '../../../src/core/ports/clock.js';
import { Engram } from '../../../src/index.js';
import { openPgliteStore } from '../../../src/storage/postgres/index.js';
import { closeSharedPglite, freshPgSchema, pgTestUrl, PG_SKIP_REASON, sharedPglite, uniqueSchema } from '../../helpers/postgres.js';
import { tempDir } from '../../helpers/temp.js';
import { join } from 'node:path';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 2, 1, 12);
const S = 'acme/users/ana';

beforeAll(async () => {
  await sharedPglite();
}, 120_000);
afterAll(closeSharedPglite);

interface Pair {
  server: Engram;
  writer: Engram;
  cleanup: () => Promise<void>;
}

/** The turns, the reads before and after another engine's correction, and what each shows. */
async function correctionSeenAtOnce(pair: Pair): Promise<void> {
  const { server, writer } = pair;
  const say = (engram: Engram, content: string, i: number) =>
    engram.remember({
      scope: S,
      content,
      capture: true,
      occurredAt: NOW - (20 - i) * DAY,
      source: { conversationId: 's1', messageId: `m${i}` },
    });
  const lisbon = await say(server, 'user: I live in Lisbon.', 0);
  await say(server, 'user: Our CI runs on GitHub Actions.', 1);
  const recalled = async () =>
    (await server.recall('Where do I live?', { scopes: [S], k: 10, trackAccess: false })).hits.find((h) => h.id === lisbon.id);
  const shown = async () =>
    (await server.context({ scopes: [S], message: 'Where do I live?', budgetMs: 10_000 })).parts.episodes.items.find(
      (e) => e.id === lisbon.id,
    );
  // both reads keep the scope's index of corrected claims
  expect((await recalled())?.correctedBy).toBeUndefined();
  expect((await shown())?.correctedBy).toBeUndefined();

  const correction = await say(writer, 'user: Actually I moved to Porto last month.', 2);
  expect(correction.action).not.toBe('deduplicated');
  expect((await recalled())?.correctedBy?.content).toBe('Actually, I moved to Porto last month.');
  expect((await shown())?.correctedBy?.content).toBe('Actually, I moved to Porto last month.');

  // the other engine forgets the corrected claim: the turn is unmarked at once too
  const [corrected] = await writer.store.listMemories({ scopes: [S], layers: ['semantic'], statuses: ['superseded'], limit: 10 });
  expect(corrected?.content).toContain('Lisbon');
  await writer.forget(corrected?.id as string, { scope: S });
  expect((await recalled())?.correctedBy).toBeUndefined();
  expect((await shown())?.correctedBy).toBeUndefined();
}

describe('a correction written by another engine on the same database', () => {
  it('SQLite file: is marked by the running engine in its very next recall and context', async () => {
    const { dir, cleanup } = tempDir();
    const path = join(dir, 'engram.db');
    const clock = new ManualClock(NOW);
    const server = await Engram.open({ path, embedder: 'hash', clock });
    const writer = await Engram.open({ path, embedder: 'hash', clock });
    try {
      await correctionSeenAtOnce({ server, writer, cleanup: async () => undefined });
    } finally {
      await writer.close();
      await server.close();
      cleanup();
    }
  });

  it('PGlite: is marked by the running engine in its very next recall and context', async () => {
    const pglite = await sharedPglite();
    const schema = uniqueSchema('c');
    const embedder = new HashEmbedder();
    const open = () => openPgliteStore({ pglite, schema, embedding: { name: embedder.name, dimension: embedder.dimension } });
    const clock = new ManualClock(NOW);
    const server = new Engram({ store: await open(), embedder, clock });
    const writer = new Engram({ store: await open(), embedder, clock });
    try {
      await correctionSeenAtOnce({ server, writer, cleanup: async () => undefined });
    } finally {
      await writer.close();
      await server.close();
      await pglite.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  });

  it.skipIf(pgTestUrl() === undefined)(
    `PostgreSQL server: is marked by the running engine in its very next recall and context${pgTestUrl() === undefined ? ` (${PG_SKIP_REASON})` : ''}`,
    async () => {
      const { url, drop } = freshPgSchema('c');
      const clock = new ManualClock(NOW);
      const server = await Engram.open({ path: url, embedder: 'hash', clock });
      const writer = await Engram.open({ path: url, embedder: 'hash', clock });
      try {
        await correctionSeenAtOnce({ server, writer, cleanup: async () => undefined });
      } finally {
        await writer.close();
        await server.close();
        await drop();
      }
    },
  );
});
