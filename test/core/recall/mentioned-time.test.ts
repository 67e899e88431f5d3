/**
 * The mention channel (`mentioned-time.ts`): a memory whose own text names a time inside the query's
 * date window ("yesterday", written the day after) is found for that date. The scoring function, then
 * through the engine on a real SQLite file, where the turn about the asked day was written the next
 * day among turns written on the day itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { MENTIONS_VERSION, mentionedTimeHits, mentionWindows } from '../../../src/core/recall/mentioned-time.js';
import type { MemoryRecord } from '../../../src/core/memory.js';
import { tempEngram } from '../../helpers/temp.js';
import { Engram } from '../../../src/index.js';
import { ManualClock } from '../../../src/core/ports/clock.js';

const day = (m: number, d: number): number => Date.UTC(2023, m - 1, d);

/** Only the fields the channel reads. */
const record = (id: string, content: string, occurredAt: number | null, validFrom = occurredAt ?? 0): MemoryRecord =>
  ({ id, content, occurredAt, validFrom }) as MemoryRecord;

describe('mentionedTimeHits', () => {
  const october3 = { start: day(10, 3), end: day(10, 4) };

  it('reads a text relative to when it was written and scores the share of its span inside the window', () => {
    const hits = mentionedTimeHits(
      [
        record('yesterday', 'Yesterday I met some artists in Boston.', day(10, 4) + 15 * 3_600_000),
        record('last-week', 'Last week was busy with the album.', day(10, 11) + 3_600_000),
        record('same-day', 'I met some artists in Boston.', day(10, 3) + 3_600_000),
        record('other-day', 'Yesterday I went bowling.', day(10, 9)),
      ],
      october3,
    );
    // "last week" from 11 October is 2-8 October (Monday to Sunday): one of its seven days is asked about
    expect(hits.map((h) => h.id)).toEqual(['yesterday', 'last-week']);
    expect(hits[0]?.score).toBe(1);
    expect(hits[1]?.score).toBeCloseTo(1 / 7, 6);
  });

  it('a day named inside a month asked about scores 1; the record time falls back to validFrom', () => {
    const hits = mentionedTimeHits([record('noted', 'On 12 July we flew to Lisbon.', null, day(8, 2))], {
      start: day(7, 1),
      end: day(8, 1),
    });
    expect(hits).toEqual([{ id: 'noted', score: 1 }]);
  });

  it('skips what only says when the text was written ("now", "tonight"), which the temporal channel reads', () => {
    const written = day(10, 3) + 20 * 3_600_000;
    expect(mentionedTimeHits([record('now', 'I am cooking dinner now, and tonight we watch a film.', written)], october3)).toEqual([]);
  });

  it('reads a record again when its text or time changed under the same id', () => {
    const written = day(10, 4) + 3_600_000;
    expect(mentionedTimeHits([record('edited', 'Yesterday I met them.', written)], october3)).toHaveLength(1);
    expect(mentionedTimeHits([record('edited', 'I met them.', written)], october3)).toEqual([]);
    expect(mentionedTimeHits([record('edited', 'Yesterday I met them.', written + 86_400_000)], october3)).toEqual([]);
  });

  it("reads a text's relative dates on its writer's wall clock when the write gave one, else on UTC", () => {
    // 08:30 on 4 October in Tokyo is 23:30 on 3 October in UTC: "yesterday" is 3 October in Tokyo, 2 October in UTC
    const written = day(10, 3) + 23.5 * 3_600_000;
    const tokyo = {
      ...record('tokyo', 'Yesterday I met some artists in Boston.', written),
      data: { wallClock: { timeZone: 'Asia/Tokyo' } },
    };
    const utc = record('utc', 'Yesterday I met some artists in Boston.', written);
    const tokyoOctober3 = { start: day(10, 3) - 9 * 3_600_000, end: day(10, 4) - 9 * 3_600_000 };
    expect(mentionWindows(tokyo.content, written, { timeZone: 'Asia/Tokyo' })).toEqual([tokyoOctober3]);
    expect(mentionWindows(tokyo.content, written, { timezoneOffsetMinutes: 540 })).toEqual([tokyoOctober3]);
    expect(mentionWindows(utc.content, written)).toEqual([{ start: day(10, 2), end: day(10, 3) }]);
    const hits = mentionedTimeHits([tokyo as MemoryRecord, utc], tokyoOctober3);
    expect(hits[0]).toEqual({ id: 'tokyo', score: 1 });
    expect(hits[1]?.id).toBe('utc');
    expect(hits[1]?.score).toBeCloseTo(9 / 24, 6);
  });

  it('finds nothing in texts without dates', () => {
    expect(mentionedTimeHits([record('plain', 'We talked about the garden.', day(10, 4))], october3)).toEqual([]);
  });
});

describe('stored mentioned times', () => {
  const october3 = { start: day(10, 3), end: day(10, 4) };

  it('are used instead of reading the text when the store holds them', () => {
    const a = record('a', 'We met them in Boston.', day(10, 4));
    const b = record('b', 'Yesterday I met them.', day(10, 4));
    const stored = (r: MemoryRecord) => (r.id === 'a' ? [{ start: day(10, 3), end: day(10, 4) }] : undefined);
    // a's text names no day, but the store says it names 3 October; b, with nothing stored, is read
    expect(mentionedTimeHits([a, b], october3, stored).map((h) => h.id)).toEqual(['a', 'b']);
    expect(mentionedTimeHits([a, b], october3).map((h) => h.id)).toEqual(['b']);
  });

  it('mentionWindows leaves out the times that contain the write time', () => {
    const written = day(10, 4) + 15 * 3_600_000;
    expect(mentionWindows('Today I rest; yesterday I met them.', written)).toEqual([{ start: day(10, 3), end: day(10, 4) }]);
  });
});

describe("a write's wall clock (timeZone, timezoneOffsetMinutes) through the engine (SQLite file, hash embedder)", () => {
  let ctx: Awaited<ReturnType<typeof tempEngram>>;
  const scope = 'tests/tokyo';
  // 08:30 on 4 October in Tokyo
  const written = day(10, 3) + 23.5 * 3_600_000;

  beforeAll(async () => {
    ctx = await tempEngram();
  });

  afterAll(async () => ctx.cleanup());

  it('is kept with the record, and its relative dates are stored and recalled as days of that clock', async () => {
    const { id } = await ctx.engram.remember({
      scope,
      content: 'Yesterday I met some artists in Boston.',
      occurredAt: written,
      timeZone: 'Asia/Tokyo',
    });
    await ctx.engram.remember({ scope, content: 'Yesterday I went bowling with Ana.', occurredAt: written, timezoneOffsetMinutes: -300 });
    const [stored] = await ctx.engram.store.getMemories([id], [scope]);
    expect(stored!.data.wallClock).toEqual({ timeZone: 'Asia/Tokyo' });
    expect((await ctx.engram.get(id, { scopes: [scope] })).wallClock).toEqual({ timeZone: 'Asia/Tokyo' });
    expect((await ctx.engram.processJobs()).mentionedTimes).toBeGreaterThanOrEqual(2);
    const [filled] = await ctx.engram.store.getMemories([id], [scope]);
    expect(ctx.engram.store.mentionsOf!(filled!)).toEqual([{ start: day(10, 3) - 9 * 3_600_000, end: day(10, 4) - 9 * 3_600_000 }]);
    const { hits } = await ctx.engram.recall('Where was I on October 3, 2023?', {
      scopes: [scope],
      timeZone: 'Asia/Tokyo',
      referenceTime: day(11, 1),
      trackAccess: false,
    });
    const boston = hits.find((h) => h.id === id);
    expect(boston?.why.channels.mention?.score).toBe(1);
    // New York's evening of 3 October: its "yesterday" is 2 October there, 14 of whose hours are in
    // Tokyo's 3 October (read on UTC it would be 9)
    const bowling = hits.find((h) => h.content.includes('bowling'));
    expect(bowling?.why.channels.mention?.score).toBeCloseTo(14 / 24, 4);
  });

  it('a zone the runtime does not know, or both kinds of clock at once, is refused and nothing is written', async () => {
    const before = (await ctx.engram.list({ scopes: [scope], limit: 100 })).items.length;
    await expect(ctx.engram.remember({ scope, content: 'Yesterday it rained.', timeZone: 'Mars/Olympus_Mons' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/timeZone.*IANA/s),
    });
    await expect(
      ctx.engram.remember({ scope, content: 'Yesterday it rained.', timeZone: 'Asia/Tokyo', timezoneOffsetMinutes: 540 }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('timezoneOffsetMinutes') });
    expect((await ctx.engram.list({ scopes: [scope], limit: 100 })).items.length).toBe(before);
  });
});

describe('recall finds a turn that names the day asked about, written the day after (SQLite file, hash embedder)', () => {
  let ctx: Awaited<ReturnType<typeof tempEngram>>;
  const scope = 'tests/diary';
  const at = (d: number, hour: number): string => new Date(day(10, d) + hour * 3_600_000).toISOString();

  beforeAll(async () => {
    ctx = await tempEngram();
    const filler = Array.from({ length: 40 }, (_, i) => ({
      scope,
      content: `Cal: note ${100 + i} about the studio and the album`,
      occurredAt: at(3, 8 + (i % 12)),
      context: { sessionId: 'oct-3' },
    }));
    await ctx.engram.remember([
      ...filler,
      { scope, content: 'Cal: Yesterday I met some incredible artists in Boston.', occurredAt: at(4, 15), context: { sessionId: 'oct-4' } },
      { scope, content: 'Cal: Today I am resting at home.', occurredAt: at(4, 16), context: { sessionId: 'oct-4' } },
    ]);
  });

  afterAll(async () => ctx.cleanup());

  const ask = (engram: Engram) =>
    engram.recall('Which city was Cal at on October 3, 2023?', {
      scopes: [scope],
      k: 10,
      trackAccess: false,
      referenceTime: day(11, 1),
    });

  it('ranks it first, and says why', async () => {
    const { hits } = await ask(ctx.engram);
    expect(hits[0]?.content).toBe('Cal: Yesterday I met some incredible artists in Boston.');
    expect(hits[0]?.why.channels.mention).toEqual({ rank: 1, score: 1 });
  });

  it('mentionWeight 0 (config) or weights.mention 0 (one call) turn it off', async () => {
    const off = await Engram.open({ path: ctx.path, embedder: 'hash', recall: { mentionWeight: 0 } });
    try {
      const { hits } = await ask(off);
      expect(hits.every((h) => h.why.channels.mention === undefined)).toBe(true);
      expect(hits[0]?.content).not.toBe('Cal: Yesterday I met some incredible artists in Boston.');
    } finally {
      await off.close();
    }
    const { hits } = await ctx.engram.recall('Which city was Cal at on October 3, 2023?', {
      scopes: [scope],
      k: 10,
      trackAccess: false,
      referenceTime: day(11, 1),
      weights: { mention: 0 },
    });
    expect(hits.every((h) => h.why.channels.mention === undefined)).toBe(true);
    expect(hits[0]?.content).not.toBe('Cal: Yesterday I met some incredible artists in Boston.');
  });

  it('processJobs stores the times; recall then reads them from the store, with the same hits', async () => {
    // a fixed clock: recall's blend reads the time (activation, recency). The same recall repeated can
    // differ in the sixth decimal of a score (the read cache changes the order of some sums), so hits
    // are compared by order, score to four places, and their mention channel
    const same = (hits: Awaited<ReturnType<typeof ask>>['hits']) =>
      hits.map((h) => [h.id, Math.round(h.score * 1e4), h.why.channels.mention ?? null]);
    const fixed = await Engram.open({ path: ctx.path, embedder: 'hash', clock: new ManualClock(Date.now() + 86_400_000) });
    const sql = (statement: string, ...params: unknown[]): unknown => {
      const db = new Database(ctx.path);
      try {
        return statement.startsWith('SELECT')
          ? db
              .prepare(statement)
              .pluck()
              .get(...params)
          : db.prepare(statement).run(...params);
      } finally {
        db.close();
      }
    };
    try {
      // the drain's other work first (its concepts change the lexical statistics), then every record
      // pending again, so the hits before are read from the texts
      expect((await fixed.processJobs()).mentionedTimes).toBeGreaterThanOrEqual(42);
      sql('UPDATE memories SET mentions = NULL');
      const records = sql('SELECT count(*) FROM memories WHERE scope = ?', scope) as number;
      expect(records).toBeGreaterThanOrEqual(42);
      expect((await fixed.stats({ scopes: [scope] })).mentionedTimesPending).toBe(records);
      const before = same((await ask(fixed)).hits);
      // the 42 turns, and the concepts the drain extracted from them
      expect((await fixed.processJobs()).mentionedTimes).toBeGreaterThanOrEqual(42);
      expect((await fixed.processJobs()).mentionedTimes).toBe(0);
      expect((await fixed.stats({ scopes: [scope] })).mentionedTimesPending).toBe(0);
      expect(same((await ask(fixed)).hits)).toEqual(before);
      // the store's answer is what recall reads: move what the Boston turn names to another day, and it
      // no longer matches 3 October
      const boston = before[0]![0] as string;
      expect(sql('SELECT mentions FROM memories WHERE id = ?', boston)).toBe(
        `${MENTIONS_VERSION}:${JSON.stringify([[day(10, 3), day(10, 4)]])}`,
      );
      sql('UPDATE memories SET mentions = ? WHERE id = ?', `${MENTIONS_VERSION}:${JSON.stringify([[day(9, 3), day(9, 4)]])}`, boston);
      const moved = (await ask(fixed)).hits;
      expect(moved.find((h) => h.id === boston)?.why.channels.mention).toBeUndefined();
      // what another version of the date reader stored is not used: the text is read again
      sql('UPDATE memories SET mentions = ? WHERE id = ?', `${MENTIONS_VERSION + 1}:${JSON.stringify([[day(9, 3), day(9, 4)]])}`, boston);
      expect(same((await ask(fixed)).hits)).toEqual(before);
    } finally {
      await fixed.close();
    }
  });

  it('a store whose times an older date reader stored is migrated to read them again', async () => {
    const db = (): Database.Database => new Database(ctx.path);
    await ctx.engram.processJobs();
    let raw = db();
    const stored = raw.prepare('SELECT count(*) FROM memories WHERE scope = ? AND mentions IS NOT NULL').pluck().get(scope) as number;
    expect(stored).toBeGreaterThanOrEqual(42);
    // as an older version left it: its own version's times, and the migration not yet applied
    raw.prepare("UPDATE memories SET mentions = '1:' || substr(mentions, instr(mentions, ':') + 1) WHERE mentions IS NOT NULL").run();
    raw.prepare('DELETE FROM schema_migrations WHERE version = 26').run();
    raw.close();
    const reopened = await Engram.open({ path: ctx.path, embedder: 'hash' });
    try {
      expect((await reopened.stats({ scopes: [scope] })).mentionedTimesPending).toBeGreaterThanOrEqual(stored);
      expect((await reopened.processJobs()).mentionedTimes).toBeGreaterThanOrEqual(stored);
      raw = db();
      const versions = raw
        .prepare("SELECT DISTINCT substr(mentions, 1, instr(mentions, ':')) FROM memories WHERE mentions IS NOT NULL")
        .pluck()
        .all();
      raw.close();
      expect(versions).toEqual([`${MENTIONS_VERSION}:`]);
    } finally {
      await reopened.close();
    }
  });

  it('a query without a date has no mention channel', async () => {
    const { hits } = await ctx.engram.recall('Which city was Cal in?', { scopes: [scope], k: 10, trackAccess: false });
    expect(hits.some((h) => h.why.channels.mention !== undefined)).toBe(false);
  });

  it('a bad weight is refused with the key named', async () => {
    await expect(Engram.open({ path: ctx.path, embedder: 'hash', recall: { mentionWeight: -1 } })).rejects.toThrow(/mentionWeight/);
    await expect(ctx.engram.recall('on October 3?', { scopes: [scope], weights: { mention: Number.NaN } })).rejects.toThrow(/mention/);
  });
});
