/**
 * A query naming a scope's participants is embedded without their names (`participants.ts`): the two
 * functions, then through the engine on a real SQLite file, watching which text the semantic channel
 * asks the embedder for, and with the real default model on a conversation where the names mislead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homedir } from 'node:os';
import { ubiquitousSpeakers, withoutNames } from '../../../src/core/recall/participants.js';
import type { EpisodeHead } from '../../../src/core/ports/store.js';
import type { Embedder, EmbedOptions } from '../../../src/core/ports/embedder.js';
import { HashEmbedder } from '../../../src/embeddings/hash/index.js';
import { DEFAULT_ONNX_MODEL, hasModelFiles, resolveModelCacheDir } from '../../../src/embeddings/onnx/index.js';
import { tempEngram } from '../../helpers/temp.js';
import { Engram } from '../../../src/index.js';

const RULE = { share: 0.8, minTurns: 20 };
const heads = (...speakers: string[]): EpisodeHead[] => speakers.map((s) => ({ head: `${s}: something said`, people: [] }));
const alternating = (n: number, a = 'Caroline', b = 'Melanie'): EpisodeHead[] =>
  heads(...Array.from({ length: n }, (_, i) => (i % 2 ? b : a)));

describe('ubiquitousSpeakers', () => {
  it('names both people of a two-person conversation, neither one alone', () => {
    expect(ubiquitousSpeakers(['caroline', 'melanie'], alternating(40), RULE).sort()).toEqual(['caroline', 'melanie']);
    expect(ubiquitousSpeakers(['melanie'], alternating(40), RULE)).toEqual([]);
    // a third name in the query does not stop the two from being recognised, and is not one of them
    expect(ubiquitousSpeakers(['caroline', 'melanie', 'vivaldi'], alternating(40), RULE).sort()).toEqual(['caroline', 'melanie']);
  });

  it('counts who speaks, not who is mentioned, and one person who speaks nearly every turn', () => {
    const mentioned = Array.from({ length: 40 }, (_, i) => ({
      head: `${i % 2 ? 'Dan' : 'Eve'}: thanks, Caroline and Melanie!`,
      people: [],
    }));
    expect(ubiquitousSpeakers(['caroline', 'melanie'], mentioned, RULE)).toEqual([]);
    const diary = [...heads(...Array.from({ length: 36 }, () => 'Ann Marie')), ...heads('Bo', 'Bo', 'Bo', 'Bo')];
    expect(ubiquitousSpeakers(['ann marie'], diary, RULE)).toEqual(['ann marie']);
    expect(ubiquitousSpeakers(['ann marie'], diary, { ...RULE, share: 0.95 })).toEqual([]);
  });

  it('reads the one perceived person of a turn without a speaker prefix, and ignores turns with neither', () => {
    const perceived: EpisodeHead[] = [
      ...Array.from({ length: 30 }, (_, i) => ({ head: 'went for a run', people: [i % 2 ? 'Melanie' : 'Caroline'] })),
      ...Array.from({ length: 30 }, () => ({ head: 'a note with nobody in it', people: [] })),
      ...Array.from({ length: 5 }, () => ({ head: 'a walk together', people: ['Caroline', 'Melanie'] })),
    ];
    expect(ubiquitousSpeakers(['caroline', 'melanie'], perceived, RULE).sort()).toEqual(['caroline', 'melanie']);
  });

  it('says nothing from too few turns, with the rule off, or for no names', () => {
    expect(ubiquitousSpeakers(['caroline', 'melanie'], alternating(19), RULE)).toEqual([]);
    expect(ubiquitousSpeakers(['caroline', 'melanie'], alternating(40), { ...RULE, share: 0 })).toEqual([]);
    expect(ubiquitousSpeakers([], alternating(40), RULE)).toEqual([]);
  });
});

describe('withoutNames', () => {
  it('takes the names out, possessives and any case included, and keeps other words whole', () => {
    expect(withoutNames("What have Caroline and Melanie's kids both painted?", ['caroline', 'melanie'])).toBe(
      'What have and kids both painted?',
    );
    expect(withoutNames('did CAROLINE’s friend meet melanie?', ['caroline', 'melanie'])).toBe('did friend meet ?');
    expect(withoutNames('Is Annabel Ann Marie’s sister?', ['ann marie'])).toBe('Is Annabel sister?');
    expect(withoutNames('What did Dr. Lee say?', ['dr. lee'])).toBe('What did say?');
  });

  it('is null when nothing was taken out or nothing would be left to ask', () => {
    expect(withoutNames('What did Caroline paint?', ['melanie'])).toBeNull();
    expect(withoutNames('Caroline and Melanie?', ['caroline', 'melanie'])).toBeNull();
  });
});

/** The hash embedder, noting each text it is asked to embed as a query. */
class QueryRecorder implements Embedder {
  readonly inner = new HashEmbedder();
  readonly name = this.inner.name;
  readonly dimension = this.inner.dimension;
  readonly queries: string[] = [];
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]> {
    if (options?.purpose === 'query') this.queries.push(...texts);
    return this.inner.embed(texts);
  }
}

const CHAT = 'tests/chat';
const OTHERS = 'tests/others';

describe('recall embeds a query naming the participants without their names (SQLite file, hash embedder)', () => {
  const embedder = new QueryRecorder();
  let ctx: Awaited<ReturnType<typeof tempEngram>>;

  beforeAll(async () => {
    ctx = await tempEngram({ embedder });
    const turns = Array.from({ length: 30 }, (_, i) => ({
      scope: CHAT,
      content: `${i % 2 ? 'Ben' : 'Ann'}: turn ${i} about the garden, the bread and the weekend`,
      context: { sessionId: 'chat-1' },
    }));
    // in the other scope Ann and Ben are only talked about
    const others = Array.from({ length: 30 }, (_, i) => ({
      scope: OTHERS,
      content: `${i % 2 ? 'Dan' : 'Eve'}: Ann and Ben baked bread ${i}`,
    }));
    await ctx.engram.remember([...turns, ...others]);
  });

  afterAll(async () => ctx.cleanup());

  const asked = async (query: string, scope: string): Promise<string[]> => {
    embedder.queries.length = 0;
    const { hits } = await ctx.engram.recall(query, { scopes: [scope], k: 5, trackAccess: false });
    expect(hits.length).toBeGreaterThan(0);
    return [...embedder.queries];
  };

  it('both participants named: only the rest of the query is embedded', async () => {
    expect(await asked('What bread have Ann and Ben both baked?', CHAT)).toEqual(['What bread have and both baked?']);
  });

  it('one participant, people who do not speak there, or no names: the query as asked', async () => {
    expect(await asked('What bread has Ann baked?', CHAT)).toEqual(['What bread has Ann baked?']);
    expect(await asked('What bread have Ann and Ben both baked?', OTHERS)).toEqual(['What bread have Ann and Ben both baked?']);
    expect(await asked('what bread was baked?', CHAT)).toEqual(['what bread was baked?']);
  });

  it('a single-channel baseline (weights { lexical: 0 }) embeds the query as asked', async () => {
    embedder.queries.length = 0;
    await ctx.engram.recall('What bread have Ann and Ben both baked?', {
      scopes: [CHAT],
      k: 5,
      trackAccess: false,
      weights: { lexical: 0 },
    });
    expect(embedder.queries).toEqual(['What bread have Ann and Ben both baked?']);
  });

  it('participantShare 0 turns it off', async () => {
    const off = await Engram.open({ path: ctx.path, embedder, recall: { participantShare: 0 } });
    try {
      embedder.queries.length = 0;
      await off.recall('What bread have Ann and Ben both baked?', { scopes: [CHAT], k: 5, trackAccess: false });
      expect(embedder.queries).toEqual(['What bread have Ann and Ben both baked?']);
    } finally {
      await off.close();
    }
  });
});

// the default model is required on CI (`.ci/run` fetches it), skipped on a machine without it
const defaultInstalled = hasModelFiles(resolveModelCacheDir(process.env, homedir()), DEFAULT_ONNX_MODEL);
const skipReal = !defaultInstalled && process.env.CI !== 'true';

/** Ann and Ben, who address each other by name in most turns; each mentions a painting once. */
const CONVERSATION = [
  'Ann: Hey Ben! How was your week?',
  'Ben: Hi Ann! Busy, but good. Work was hectic.',
  'Ann: Thanks for asking about my sister, Ben, she is doing better.',
  'Ben: Glad to hear it, Ann. Tell her I said hi.',
  'Ann: I finally finished a watercolour of the harbour at sunset.',
  'Ben: Ann, that sounds lovely. You always had an eye for colour.',
  'Ann: Thanks Ben! How is your running going?',
  'Ben: I ran ten kilometres on Sunday, a personal best.',
  'Ann: Wow Ben, congratulations!',
  'Ben: Thanks Ann, I have been training for months.',
  'Ann: My kids started swimming lessons this month.',
  'Ben: That is great, Ann. Swimming is such a useful skill.',
  'Ann: Ben, did you end up adopting that cat?',
  'Ben: Not yet, Ann, my landlord still has to agree.',
  'Ann: I hope he says yes, Ben.',
  'Ben: Me too. Oh, and I painted a small landscape of the mountains near my cabin.',
  'Ann: No way, Ben! I did not know you paint.',
  'Ben: Just started, Ann. It is relaxing after work.',
  'Ann: We should go to the art fair together, Ben.',
  'Ben: Sounds good, Ann. Let us plan it.',
  'Ann: I am reading a novel about a lighthouse keeper.',
  'Ben: Ann, tell me if it is good.',
  'Ann: Will do, Ben. Talk soon!',
  'Ben: Bye Ann!',
];

describe.skipIf(skipReal)(`with the real default model (${DEFAULT_ONNX_MODEL}): a question naming both finds what they did`, () => {
  let ctx: Awaited<ReturnType<typeof tempEngram>>;
  let off: Engram;

  beforeAll(async () => {
    ctx = await tempEngram({ embedder: DEFAULT_ONNX_MODEL, workers: 0 });
    await ctx.engram.remember(
      CONVERSATION.map((content, i) => ({
        scope: 'real/chat',
        content,
        occurredAt: new Date(Date.UTC(2026, 0, 1, 10, i)).toISOString(),
        context: { sessionId: 's1' },
      })),
    );
    off = await Engram.open({ path: ctx.path, embedder: DEFAULT_ONNX_MODEL, workers: 0, recall: { participantShare: 0 } });
  }, 300_000);

  afterAll(async () => {
    await off.close();
    await ctx.cleanup();
  });

  const found = async (engram: Engram, query: string): Promise<number> => {
    const { hits } = await engram.recall(query, { scopes: ['real/chat'], k: 10, trackAccess: false });
    return ['watercolour of the harbour', 'landscape of the mountains'].filter((s) => hits.some((h) => h.content.includes(s))).length;
  };

  it('both paintings are in the top 10 only when the names are left out of the semantic query', async () => {
    for (const query of ['What have Ann and Ben both painted?', 'What kind of art have Ann and Ben each made?']) {
      expect(await found(ctx.engram, query), query).toBe(2);
      // with the names in, every turn matches them and the paintings fall out of the ten
      expect(await found(off, query), query).toBeLessThan(2);
    }
  });
});
