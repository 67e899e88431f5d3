/**
 * A query that asks only for a time ("what did I do yesterday?"): what happened in the window comes
 * before what merely says the date word ("What did you do yesterday? asked my manager", written days
 * before). The query analysis that tells such a query, then recall through the engine on a real SQLite
 * file, with the hash embedder and with the real default model.
 */
import { homedir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeQuery } from '../../../src/core/recall/query-analysis.js';
import { ManualClock } from '../../../src/core/ports/clock.js';
import { DEFAULT_ONNX_MODEL, hasModelFiles, resolveModelCacheDir } from '../../../src/embeddings/onnx/index.js';
import type { Engram } from '../../../src/index.js';
import type { EmbedderChoice } from '../../../src/embedder-choice.js';
import { tempEngram } from '../../helpers/temp.js';

const NOW = Date.parse('2026-12-07T15:00:00Z');
const at = (day: number, hour: number): number => Date.UTC(2026, 11, day, hour);

describe('analyzeQuery: windowOnly', () => {
  const only = (text: string) => analyzeQuery(text, { referenceTime: NOW }).windowOnly;

  it('is set for a date window with nothing but words that ask what went on', () => {
    for (const text of [
      'what did I do yesterday?',
      'What happened yesterday?',
      'What was I up to last week?',
      'what did we work on last Friday?',
      'What did I do on May 3?',
      'Anything important happen in Q3?',
      'Summarize last week',
      'what did we discuss yesterday',
      "what's coming up this week?",
      "what's planned for tomorrow?",
    ])
      expect(only(text), text).toBe(true);
  });

  it('is not set when the query names a topic, a name, or no window', () => {
    for (const text of [
      'who did I have lunch with yesterday?',
      'What meetings did I have yesterday?',
      'what did Priya do yesterday?',
      'what did I do about the login bug last week?',
      'what did I do?',
      'what happened with the deploy',
    ])
      expect(only(text), text).toBe(false);
  });
});

/** Three things done on 6 December, and two notes from other days that say "yesterday" without being about it. */
const DIARY = [
  { content: 'Went to the gym and did a leg workout.', occurredAt: at(6, 8), about: true },
  { content: 'Had lunch with Priya at the ramen place.', occurredAt: at(6, 12), about: true },
  { content: 'Fixed the login bug in the mobile app.', occurredAt: at(6, 16), about: true },
  { content: 'I always forget what I did yesterday, so I keep a log of my days.', occurredAt: at(3, 9), about: false },
  { content: 'What did you do yesterday? asked my manager in the standup.', occurredAt: at(2, 9), about: false },
  { content: 'Watched a movie about space travel.', occurredAt: at(4, 20), about: false },
  { content: 'Bought groceries: eggs, milk and bread.', occurredAt: at(5, 18), about: false },
];

function runDiary(name: string, embedder: EmbedderChoice, skip: boolean): void {
  describe.skipIf(skip)(`recall of a time-only query (${name})`, () => {
    let ctx: Awaited<ReturnType<typeof tempEngram>>;
    const scope = 'users/me';
    const ask = (engram: Engram, query: string, weights?: Record<string, number>) =>
      engram.recall(query, { scopes: [scope], k: 5, trackAccess: false, ...(weights !== undefined ? { weights } : {}) });

    beforeAll(async () => {
      ctx = await tempEngram({ embedder, workers: 0, clock: new ManualClock(NOW) });
      await ctx.engram.remember(DIARY.map(({ content, occurredAt }) => ({ scope, content, occurredAt })));
      await ctx.engram.processJobs();
    }, 120_000);
    afterAll(async () => ctx?.cleanup());

    it('ranks what happened in the window first, before notes that only say the date word', async () => {
      const day = DIARY.filter((d) => d.about).map((d) => d.content);
      for (const query of ['what did I do yesterday?', 'What happened yesterday?']) {
        const { hits } = await ask(ctx.engram, query);
        expect(new Set(hits.slice(0, 3).map((h) => h.content)), query).toEqual(new Set(day));
        expect(hits.slice(0, 3).every((h) => h.why.channels.temporal !== undefined)).toBe(true);
        // the day's events answer the question: they read as clear matches, the notes that only say "yesterday" as weak
        expect(hits.slice(0, 3).every((h) => h.relevance > 0.6)).toBe(true);
        expect(hits.slice(3).every((h) => h.relevance < 0.3)).toBe(true);
      }
    });

    it('a topical question about the day is ranked as before; weights the call sets are kept', async () => {
      const lunch = await ask(ctx.engram, 'who did I have lunch with yesterday?');
      expect(lunch.hits[0]?.content).toBe('Had lunch with Priya at the ramen place.');
      // the caller's own temporal weight holds: the date word's lexical match comes back
      const pinned = await ask(ctx.engram, 'what did I do yesterday?', { temporal: 0.15 });
      expect(pinned.hits.some((h) => h.why.channels.lexical !== undefined)).toBe(true);
    });

    it('a plan written before the days asked about is found for them: the window reaches past now', async () => {
      const plan = await ctx.engram.remember({
        scope,
        content: 'The parent-teacher conference is on Thursday Dec 10 at 5pm.',
        occurredAt: at(1, 10),
      });
      const chores = await ctx.engram.remember({ scope, content: 'Cleaned the garage and sorted the tools.', occurredAt: at(1, 11) });
      await ctx.engram.processJobs();
      try {
        const { hits } = await ask(ctx.engram, "what's coming up this week?");
        expect(hits[0]?.id).toBe(plan.id);
        expect(hits[0]?.why.channels.mention?.score).toBe(1);
        expect(hits[0]?.relevance).toBeGreaterThan(0.6);
        expect(hits.find((h) => h.id === chores.id)?.relevance ?? 0).toBeLessThan(0.3);
      } finally {
        await ctx.engram.forget(plan.id, { scope });
        await ctx.engram.forget(chores.id, { scope });
      }
    });

    it('windowOnlyWeight 0 (config) leaves such a query to the usual weights', async () => {
      const { Engram } = await import('../../../src/index.js');
      const off = await Engram.open({ path: ctx.path, embedder, workers: 0, clock: new ManualClock(NOW), recall: { windowOnlyWeight: 0 } });
      try {
        const { hits } = await ask(off, 'what did I do yesterday?');
        expect(hits[0]?.content).toBe('What did you do yesterday? asked my manager in the standup.');
      } finally {
        await off.close();
      }
    }, 60_000);
  });
}

// the default model is required on CI (`.ci/run` fetches it), skipped on a machine without it
const defaultInstalled = hasModelFiles(resolveModelCacheDir(process.env, homedir()), DEFAULT_ONNX_MODEL);
runDiary('hash embedder', 'hash', false);
runDiary(`the real default model, ${DEFAULT_ONNX_MODEL}`, DEFAULT_ONNX_MODEL, !defaultInstalled && process.env.CI !== 'true');
