/**
 * Compression keeps whole characters: the summary of an old episode is cut where a grapheme ends, so
 * the compressed record (what remains once the original is expired) holds no U+FFFD and no lone
 * surrogate, on SQLite and on the PostgreSQL server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Engram } from '../../src/index.js';
import { ManualClock } from '../../src/core/ports/clock.js';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { openPostgresStore } from '../../src/storage/postgres/index.js';
import { DEFAULT_COMPRESSION } from '../../src/consolidation/compression.js';
import { freshPgSchema, pgTestUrl, PG_SKIP_REASON } from '../helpers/postgres.js';
import { tempEngram } from '../helpers/temp.js';

const SCOPE = 'acme/agent';
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 2, 1);
const CUT = DEFAULT_COMPRESSION.summaryChars;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
/** Characters that straddle the cut in the episodes below: a surrogate pair, a ZWJ family, a flag, an accent. */
const STRADDLERS = ['😀', '👨‍👩‍👧‍👦', '🇵🇹', 'e\u0301'];

const pgSkip = process.env.STORES === 'sqlite' || pgTestUrl() === undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const backends: { name: string; skip: boolean; open: (clock: ManualClock) => Promise<Engram> }[] = [
  {
    name: 'SQLite',
    skip: false,
    open: async (clock) => {
      const t = await tempEngram({ clock });
      cleanups.push(t.cleanup);
      return t.engram;
    },
  },
  {
    name: `PostgreSQL${pgSkip ? ` (${PG_SKIP_REASON}, or STORES=sqlite)` : ''}`,
    skip: pgSkip,
    open: async (clock) => {
      const fresh = freshPgSchema('compress');
      const embedder = new HashEmbedder();
      const store = await openPostgresStore({
        url: fresh.url,
        embedding: { name: embedder.name, dimension: embedder.dimension },
        poolSize: 2,
      });
      const engram = new Engram({ store, embedder, clock });
      cleanups.push(async () => {
        await engram.close();
        await fresh.drop();
      });
      return engram;
    },
  },
];

describe.each(backends)('compression text on $name', ({ skip, open }) => {
  it.skipIf(skip)('cuts the summary where a character ends, whichever character straddles the cut', async () => {
    const clock = new ManualClock(T0);
    const engram = await open(clock);
    const originals = new Map<string, string>();
    for (const straddler of STRADDLERS)
      for (let before = CUT - straddler.length; before < CUT; before++) {
        const content = `${'x'.repeat(before)}${straddler} and the rest of the episode, long enough to be cut.`;
        const [written] = await engram.remember([{ scope: SCOPE, content, layer: 'episodic', importance: 0.1, occurredAt: T0 }]);
        originals.set(written?.id as string, content);
      }
    clock.advance(40 * DAY);
    await engram.consolidate({ scope: SCOPE, phases: ['compress'] });
    const compressed = (await engram.store.listMemories({ scopes: [SCOPE], statuses: ['active'], limit: 1_000 })).filter(
      (r) => r.data.compressed === true,
    );
    expect(compressed).toHaveLength(originals.size);
    for (const record of compressed) {
      const original = originals.get((record.data.compressedFrom as string[])[0] as string) as string;
      for (const text of [record.content, record.summary ?? '']) {
        expect(text).not.toContain('\uFFFD');
        expect(text).not.toMatch(LONE_SURROGATE);
        expect(text.endsWith('…')).toBe(true);
        const kept = text.slice(0, -1);
        expect(original.startsWith(kept)).toBe(true);
        expect(graphemes.segment(original).containing(kept.length)?.index).toBe(kept.length);
      }
    }
  });
});
