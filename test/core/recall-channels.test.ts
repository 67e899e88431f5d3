/**
 * Recall channels one at a time, fusion, the conversational neighbourhood and explanations, on a real
 * SQLite file (hash embedder: deterministic).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, type Engram } from '../../src/index.js';
import { tempEngram } from '../helpers/temp.js';

describe('recall channels', () => {
  let ctx: Awaited<ReturnType<typeof tempEngram>>;
  let engram: Engram;
  const clock = new ManualClock(Date.parse('2024-09-01T12:00:00Z'));

  beforeEach(async () => {
    ctx = await tempEngram({ clock });
    engram = ctx.engram;
  });
  afterEach(async () => ctx.cleanup());

  it('temporal: a query naming a month finds the event of that month', async () => {
    await engram.remember([
      { scope: 't/a', content: 'Went hiking in the mountains with the team.', occurredAt: '2024-03-14T10:00:00Z' },
      { scope: 't/a', content: 'Went hiking in the mountains with the team.', occurredAt: '2024-05-18T10:00:00Z' },
      { scope: 't/a', content: 'Went hiking in the mountains with the team.', occurredAt: '2024-07-02T10:00:00Z' },
    ]);
    const { hits } = await engram.recall('what did we do in May?', { scopes: ['t/a'], k: 3 });
    expect(hits[0]?.occurredAt).toBe('2024-05-18T10:00:00.000Z');
    expect(hits[0]?.why.channels.temporal?.rank).toBe(1);
    const off = await engram.recall('hiking in May', { scopes: ['t/a'], k: 3, weights: { temporal: 0 } });
    expect(off.hits[0]?.why.channels.temporal).toBeUndefined();
  });

  it('temporal: relative expressions resolve against the caller reference time', async () => {
    await engram.remember([
      { scope: 't/a', content: 'Dentist appointment went fine.', occurredAt: '2023-06-10T09:00:00Z' },
      { scope: 't/a', content: 'Dentist appointment went fine.', occurredAt: '2023-08-10T09:00:00Z' },
    ]);
    const { hits } = await engram.recall('dentist last June', { scopes: ['t/a'], k: 2, referenceTime: '2023-09-01T00:00:00Z' });
    expect(hits[0]?.occurredAt).toBe('2023-06-10T09:00:00.000Z');
  });

  it("temporal: a query's dates are UTC days unless the caller gives its UTC offset", async () => {
    // 21:00 on 1 May in New York (UTC-4) is 01:00 on 2 May in UTC
    const dinner = '2024-05-02T01:00:00.000Z';
    await engram.remember([
      { scope: 't/a', content: 'Dinner with Sam at the Italian place.', occurredAt: dinner },
      { scope: 't/a', content: 'Lunch with Sam at the taco stand.', occurredAt: '2024-04-30T16:00:00Z' },
    ]);
    const matched = async (options: { timezoneOffsetMinutes?: number }): Promise<string[]> => {
      const { hits } = await engram.recall('what did I eat with Sam on May 1 2024', { scopes: ['t/a'], k: 5, ...options });
      return hits.filter((h) => h.why.channels.temporal !== undefined).map((h) => String(h.occurredAt));
    };
    expect(await matched({})).not.toContain(dinner);
    expect(await matched({ timezoneOffsetMinutes: -240 })).toEqual([dinner]);
    expect(await matched({ timezoneOffsetMinutes: 0 })).toEqual(await matched({}));
    await expect(engram.recall('Sam on May 1', { scopes: ['t/a'], timezoneOffsetMinutes: 900 })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });

  it('temporal: in an IANA time zone, "yesterday" after a daylight-saving change is the whole local day', async () => {
    // Lisbon moved to UTC+1 at 01:00 UTC on 31 March 2024: that Sunday began at 00:00 UTC (UTC+0) and ended at 23:00 UTC
    const saturdayNight = '2024-03-30T23:30:00.000Z'; // 23:30 on Saturday in Lisbon
    const sundayLunch = '2024-03-31T12:30:00.000Z'; // 13:30 on Sunday in Lisbon
    await engram.remember([
      { scope: 't/a', content: 'Dinner with Sam at the Italian place.', occurredAt: saturdayNight },
      { scope: 't/a', content: 'Lunch with Sam at the taco stand.', occurredAt: sundayLunch },
    ]);
    const matched = async (options: { timeZone?: string; timezoneOffsetMinutes?: number }): Promise<string[]> => {
      const { hits } = await engram.recall('what did I eat with Sam yesterday', {
        scopes: ['t/a'],
        k: 5,
        referenceTime: '2024-04-01T09:00:00Z', // 10:00 on Monday in Lisbon
        ...options,
      });
      return hits.filter((h) => h.why.channels.temporal !== undefined).map((h) => String(h.occurredAt));
    };
    expect(await matched({ timeZone: 'Europe/Lisbon' })).toEqual([sundayLunch]);
    // the offset of Monday morning (UTC+1) for the whole window starts Sunday an hour early, at 23:00 on Saturday
    expect(await matched({ timezoneOffsetMinutes: 60 })).toContain(saturdayNight);
  });

  it('temporal: an unknown time zone, or a time zone with a UTC offset, is refused with a message saying what to give', async () => {
    await expect(engram.recall('Sam yesterday', { scopes: ['t/a'], timeZone: 'Europe/Atlantis' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/"Europe\/Atlantis" is not a known IANA time zone.*Europe\/Lisbon/),
    });
    for (const read of [
      engram.recall('Sam yesterday', { scopes: ['t/a'], timeZone: 'Europe/Lisbon', timezoneOffsetMinutes: 60 }),
      engram.context({ scopes: ['t/a'], message: 'Sam yesterday', timeZone: 'Europe/Lisbon', timezoneOffsetMinutes: 60 }),
    ]) {
      await expect(read).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        message: expect.stringMatching(/timeZone.*timezoneOffsetMinutes.*one of the two/),
      });
    }
    await expect(engram.context({ scopes: ['t/a'], message: 'Sam yesterday', timeZone: 'Mars/Olympus' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });

  it("entity: a query naming a person finds that person's facts", async () => {
    await engram.remember([
      { scope: 't/a', layer: 'semantic', content: 'Priya leads the data platform group.' },
      { scope: 't/a', layer: 'semantic', content: 'The data platform group meets on Mondays.' },
      { scope: 't/a', layer: 'semantic', content: 'Marco leads the mobile group.' },
    ]);
    const { hits } = await engram.recall('What does Priya do?', { scopes: ['t/a'], k: 3 });
    expect(hits[0]?.content).toMatch(/Priya/);
    expect(hits[0]?.why.channels.entity?.score).toBeGreaterThan(0);
  });

  it('neighbourhood: the reply to a matching question is lifted next to it', async () => {
    await engram.remember([
      {
        scope: 't/c',
        content: 'Mel: What kind of pottery did you make at the workshop?',
        source: { conversationId: 'c1', messageId: '1' },
      },
      {
        scope: 't/c',
        content: 'Caro: A blue bowl with a wave pattern, I am so proud of it.',
        source: { conversationId: 'c1', messageId: '2' },
      },
      { scope: 't/c', content: 'Mel: Nice! Shall we get lunch?', source: { conversationId: 'c1', messageId: '3' } },
      { scope: 't/c', content: 'Caro: The pottery store downtown closed last week.', source: { conversationId: 'c2', messageId: '1' } },
    ]);
    const { hits } = await engram.recall('pottery workshop', { scopes: ['t/c'], k: 4 });
    const reply = hits.find((h) => h.content.startsWith('Caro: A blue bowl'));
    const question = hits.find((h) => h.content.startsWith('Mel: What kind'));
    expect(reply).toBeDefined();
    expect(question).toBeDefined();
    // The reply shares no word with the query; the question hands it part of its relevance.
    expect(reply?.why.channels.lexical).toBeUndefined();
    expect(hits.slice(0, 2)).toContain(reply);
    expect(reply?.why.neighbourhood).toBeGreaterThan(0);
    expect(question?.why.neighbourhood).toBeLessThan(0.3 * (question?.why.fused ?? 0));
  });

  it('neighbourhood: a recall limited to some layers adds no adjacent turn of another layer', async () => {
    await engram.remember([
      // the captured claim (semantic) keeps the turn's source, so the turns are its neighbours
      { scope: 't/n', content: 'I am allergic to peanuts.', source: { conversationId: 'c1', messageId: '1' }, capture: true },
      { scope: 't/n', content: 'Noted, no peanuts then.', source: { conversationId: 'c1', messageId: '2' } },
    ]);
    const semantic = await engram.recall('allergic to peanuts', { scopes: ['t/n'], k: 5, layers: ['semantic'] });
    expect(semantic.hits.map((hit) => hit.layer)).toEqual(['semantic']);
    // without the limit the other turn comes too; the captured turn and its claim make one hit
    const all = await engram.recall('allergic to peanuts', { scopes: ['t/n'], k: 5 });
    expect(all.hits.map((hit) => hit.content).sort()).toEqual(expect.arrayContaining(['Noted, no peanuts then.']));
    expect(all.hits).toHaveLength(2);
    expect(all.hits.flatMap((hit) => hit.why.sameAs ?? [])).toHaveLength(1);
  });

  it('fusion: a memory strong in both channels beats one strong in one', async () => {
    await engram.remember([
      { scope: 't/f', content: 'The staging database runs PostgreSQL 15 on two replicas.' },
      { scope: 't/f', content: 'Staging database credentials rotate monthly.' },
      { scope: 't/f', content: 'Our lunch order is usually pizza.' },
    ]);
    const both = await engram.recall('staging database PostgreSQL replicas', { scopes: ['t/f'], k: 3 });
    expect(both.hits[0]?.content).toMatch(/PostgreSQL 15/);
    expect(Object.keys(both.hits[0]?.why.channels ?? {})).toEqual(expect.arrayContaining(['lexical', 'semantic']));
  });

  it('lexical evidence counts in proportion to the share of the query a memory covers', async () => {
    await engram.remember([
      { scope: 't/cov', content: 'The espresso machine in the kitchen leaks water.' },
      { scope: 't/cov', content: 'Water the plants on Friday.' },
      { scope: 't/cov', content: 'Our lunch order is usually pizza.' },
    ]);
    const { hits } = await engram.recall('espresso machine leaks water', { scopes: ['t/cov'], k: 3 });
    const full = hits.find((h) => h.content.startsWith('The espresso'));
    const partial = hits.find((h) => h.content.startsWith('Water the plants'));
    expect(full?.why.channels.lexical?.coverage).toBe(1);
    expect(partial?.why.channels.lexical?.coverage).toBeGreaterThan(0);
    expect(partial?.why.channels.lexical?.coverage).toBeLessThan(0.4);
    // Without the coverage factor the one-word match keeps more of its normalised BM25 score.
    const plain = await tempEngram({ recall: { lexicalCoverage: 0 } });
    try {
      await plain.engram.remember([
        { scope: 't/cov', content: 'The espresso machine in the kitchen leaks water.' },
        { scope: 't/cov', content: 'Water the plants on Friday.' },
        { scope: 't/cov', content: 'Our lunch order is usually pizza.' },
      ]);
      const before = (await plain.engram.recall('espresso machine leaks water', { scopes: ['t/cov'], k: 3 })).hits.find((h) =>
        h.content.startsWith('Water'),
      );
      expect((partial?.why.fused ?? 1) < (before?.why.fused ?? 0)).toBe(true);
    } finally {
      await plain.cleanup();
    }
  });

  it('single-channel reads are plain baselines with explanations', async () => {
    await engram.remember([
      { scope: 't/b', content: 'alpha beta gamma' },
      { scope: 't/b', content: 'delta epsilon' },
    ]);
    const lexical = await engram.recall('alpha', { scopes: ['t/b'], weights: { semantic: 0 } });
    expect(lexical.hits).toHaveLength(1);
    expect(lexical.hits[0]?.why.channels).toEqual({ lexical: expect.objectContaining({ rank: 1 }) });
    const semantic = await engram.recall('alpha', { scopes: ['t/b'], weights: { lexical: 0 } });
    expect(semantic.hits.length).toBe(2);
    expect(Object.keys(semantic.hits[0]?.why.channels ?? {})).toEqual(['semantic']);
  });

  it('BM25 statistics are per scope: a word common in one scope does not swamp another', async () => {
    const filler = Array.from({ length: 40 }, (_, i) => ({ scope: 't/big', content: `Caroline said hello number ${i}` }));
    await engram.remember([
      ...filler,
      { scope: 't/small', content: 'Caroline adopted a dog named Rex.' },
      { scope: 't/small', content: 'Rex loves the beach.' },
      { scope: 't/small', content: 'Caroline paints on Sundays.' },
    ]);
    const { hits } = await engram.recall('Caroline dog', { scopes: ['t/small'], k: 3, weights: { semantic: 0 } });
    expect(hits[0]?.content).toBe('Caroline adopted a dog named Rex.');
    // "dog" is rare in t/small, "caroline" common there: the dog match must weigh more than the name.
    const rex = hits.find((h) => h.content.startsWith('Rex'));
    const paints = hits.find((h) => h.content.includes('paints'));
    expect(rex?.why.channels.lexical).toBeUndefined();
    expect(paints?.why.channels.lexical?.score).toBeLessThan(hits[0]?.why.channels.lexical?.score ?? 0);
  });
});
