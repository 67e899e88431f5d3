/**
 * The dream phases on the real PostgreSQL server: the same planted stream gives the bridge, the
 * insight and the caution it gives on SQLite, and a second run adds nothing.
 */
import { describe, expect, it } from 'vitest';
import { Engram } from '../../src/index.js';
import { ManualClock } from '../../src/core/ports/clock.js';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { openPostgresStore } from '../../src/storage/postgres/index.js';
import { generateDreamStream, seededRandomSource } from '../../src/consolidation/dream-stream.js';
import { freshPgSchema, pgTestUrl, PG_SKIP_REASON } from '../helpers/postgres.js';

const SCOPE = 'acme/ops';
const START = Date.UTC(2026, 0, 5);
const skip = process.env.STORES === 'sqlite' || pgTestUrl() === undefined;

describe.skipIf(skip)(`dream phases on PostgreSQL${skip ? ` (${PG_SKIP_REASON}, or STORES=sqlite)` : ''}`, () => {
  it('recombine, insight and affect find what was planted; a second run adds nothing', async () => {
    const fresh = freshPgSchema('dream');
    const embedder = new HashEmbedder();
    const store = await openPostgresStore({
      url: fresh.url,
      embedding: { name: embedder.name, dimension: embedder.dimension },
      poolSize: 2,
    });
    const engram = new Engram({ store, embedder, clock: new ManualClock(START + 63 * 86_400_000) });
    try {
      const stream = generateDreamStream({ random: seededRandomSource(7), planted: true });
      const ids = (await engram.remember(stream.episodes.map((e) => ({ scope: SCOPE, ...e })))).map((r) => r.id);
      const report = await engram.consolidate({ scope: SCOPE, phases: ['extract', 'recombine', 'insight', 'affect'] });
      expect(report.phases.map((p) => p.name)).toEqual(['extract', 'recombine', 'insight', 'affect']);
      const [a, b] = (stream.truths.bridge?.ends ?? []).map((i) => ids[i] as string) as [string, string];
      const bridges = await engram.store.getEdges({ scopes: [SCOPE], ids: [a], types: ['BRIDGES'] });
      expect(bridges.some((e) => [e.fromId, e.toId].sort().join() === [a, b].sort().join())).toBe(true);
      const semantic = await engram.store.listMemories({ scopes: [SCOPE], layers: ['semantic'], limit: 10_000 });
      expect(semantic.some((r) => r.data.category === 'insight' && r.content.startsWith('deploy failures cluster on Fridays'))).toBe(true);
      expect(semantic.some((r) => r.data.category === 'caution' && r.content.startsWith('Caution on orders_db'))).toBe(true);
      expect((await engram.relations({ scopes: [SCOPE] })).find((t) => t.name === 'BRIDGES')?.symmetric).toBe(true);
      const again = await engram.consolidate({ scope: SCOPE, phases: ['extract', 'recombine', 'insight', 'affect'] });
      expect([again.bridges, again.insights, again.cautions]).toEqual([0, 0, 0]);
    } finally {
      await engram.close();
      await fresh.drop();
    }
  }, 120_000);
});
