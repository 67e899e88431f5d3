/**
 * Store contract, text and encodings: records with real source keys, every optional field, text from
 * many scripts (emoji, CJK, right-to-left, combining marks, control characters other than NUL) and long
 * texts are read back exactly as written, before and after reopening; edges, state documents, jobs and
 * metadata hold the same text. Registered by `runStoreContract`, so every backend runs these.
 */
import { expect } from 'vitest';
import type { MemoryRecord } from '../../src/core/memory.js';
import { sourceKeyOf } from '../../src/core/write/new-record.js';
import { DAY, T0, makeEdge, makeFullRecord, makeRecord } from './store-fixtures.js';
import type { ContractContext } from './store-registry.contract.js';

const A = 'acme/a';
const B = 'acme/b';

/** One line per kind of text a store must not alter. */
export const HARD_TEXTS = [
  'emoji: 👩‍👩‍👧‍👦 🇵🇹 👍🏽 🧠 and an astral letter 𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'CJK: 記憶は長期的に保存される。한국어 텍스트。中文记忆',
  'right to left: مرحبا بالعالم — שלום עולם ‏(with a mark)‏',
  'combining: e\u0301 vs é, Z\u0324\u0354\u0367\u0311a\u0308l\u036eg\u030co\u0319, Å vs A\u030a',
  'controls: tab\there, new\nline, CR\r, \u0001\u001f\u007f, separators \u2028\u2029, BOM \ufeff, private \ue000, \uffff',
  'quoting: "double" \'single\' `back` \\ backslash \\u0000 as text, %s %d $1 ? :name',
];

/** 100k characters mixing scripts, with a findable word near the end. */
export const LONG_TEXT = `${HARD_TEXTS.join(' ')
  .repeat(Math.ceil(100_000 / HARD_TEXTS.join(' ').length))
  .slice(0, 99_980)} zanzibarite end`;

/** Records that together set every optional field, with real source keys and hard text. */
function hardRecords(): MemoryRecord[] {
  const sources = [
    { system: 'claude-code', conversationId: 'session-ü-🚀', messageId: 'uuid-1' },
    { conversationId: '会話 "quoted"', messageId: 'مرحبا\\n' },
    { uri: 'file:///notes/ä b.md', messageId: 'L12' },
  ];
  const everything = makeFullRecord({
    scope: A,
    content: HARD_TEXTS.join('\n'),
    summary: HARD_TEXTS[0]!,
    tags: ['ünïcode', '漢字', 'عربي', '🏷️'],
    entities: ['Zoë', '東京', 'تل أبيب'],
    provenance: { kind: 'hybrid', sources, derivedFrom: ['01HZZZZZZZZZZZZZZZZZZZZZZZ', '01HZZZZZZZZZZZZZZZZZZZZZZY'] },
    sourceKey: sourceKeyOf(sources[0]),
    data: {
      claim: { subject: 'zoë', attribute: 'city', value: '東京', negated: true },
      history: [{ content: HARD_TEXTS[2]!, at: T0, sources: [sources[1]!] }],
      perception: { objects: ['マグカップ'], people: ['Zoë'], salience: 0.4, novelty: 0.2 },
      context: { goal: 'رحلة', location: 'Zürich', sessionId: 'session-ü-🚀', runId: 'run-1' },
      decision: { intent: 'book', confidence: 0.7, rationale: HARD_TEXTS[3]! },
      action: { tool: 'search', args: { q: '東京 flights', nested: { deep: [1, 'two', null, true, { 'k ü': 'v' }] } } },
      outcome: { success: false, reward: -0.5, detail: HARD_TEXTS[4]! },
      name: 'Zoë’s trip',
      definition: HARD_TEXTS[5]!,
      category: 'trip',
      properties: { 'key with "quotes"': 'value \\ with backslash', emoji: '🚀', empty: {}, list: [] },
      priority: -3,
      level: 2,
      metric: { n: 12, mean: 0.25, unit: '€' },
      parentId: '01HZZZZZZZZZZZZZZZZZZZZZZX',
      chunkIndex: 1,
      chunkCount: 3,
      exempt: { decay: true, supersededBy: [{ wording: 'Zoë lives in Paris', subject: 'zoë', attribute: 'city', value: 'Paris', at: T0 }] },
      supersededBy: '01HZZZZZZZZZZZZZZZZZZZZZZW',
      isChunkParent: false,
      compressed: true,
    },
  });
  const long = makeRecord({
    scope: A,
    content: LONG_TEXT,
    summary: LONG_TEXT.slice(0, 20_000),
    sourceKey: sourceKeyOf(sources[1]),
    provenance: { kind: 'episodic', sources: [sources[1]!], derivedFrom: [] },
  });
  const byUri = makeRecord({
    scope: A,
    layer: 'semantic',
    content: HARD_TEXTS[1]!,
    sourceKey: sourceKeyOf(sources[2]),
    provenance: { kind: 'document', sources: [sources[2]!], derivedFrom: [] },
  });
  return [everything, long, byUri];
}

export function registerTextContract(ctx: ContractContext): void {
  const { test, insert } = ctx;

  test('text: sourced records with every optional field and hard or long text read back exactly', async () => {
    const records = await insert(hardRecords());
    const ids = records.map((r) => r.id);
    expect(await ctx.store().getMemories(ids, [A])).toStrictEqual(records);
    await ctx.store().transaction(async (tx) => {
      expect(await tx.getMemories(ids, [A])).toStrictEqual(records);
    });
    const listed = await ctx.store().listMemories({ scopes: [A], limit: 10 });
    expect(listed.filter((r) => ids.includes(r.id))).toStrictEqual([...records].sort((x, y) => (x.id < y.id ? -1 : 1)));
  });

  test('text: sourced records with hard or long text survive close and reopen unchanged', async () => {
    const records = await insert(hardRecords());
    const reopened = await ctx.reopen();
    expect(
      await reopened.getMemories(
        records.map((r) => r.id),
        [A],
      ),
    ).toStrictEqual(records);
    expect(
      await reopened.findBySourceKey(
        A,
        records.map((r) => r.sourceKey!),
      ),
    ).toEqual(new Map(records.map((r) => [r.sourceKey!, r.id])));
  });

  test('text: records are found by their source keys, in their own scope only', async () => {
    const records = await insert(hardRecords());
    const keys = records.map((r) => r.sourceKey!);
    const found = await ctx.store().findBySourceKey(A, [...keys, sourceKeyOf({ conversationId: 'session-ü-🚀', messageId: 'uuid-2' })!]);
    expect(found).toEqual(new Map(records.map((r) => [r.sourceKey!, r.id])));
    expect(await ctx.store().findBySourceKey(B, keys)).toEqual(new Map());
    await ctx.store().transaction(async (tx) => {
      expect(await tx.findBySourceKey(A, keys)).toEqual(new Map(records.map((r) => [r.sourceKey!, r.id])));
    });
  });

  test('text: a word at the end of a 100k-character text is found by lexical search', async () => {
    const [, long] = await insert(hardRecords());
    const hits = await ctx.store().lexicalSearch({ scopes: [A], now: T0 + 30 * DAY, limit: 10, terms: [{ term: 'zanzibarite' }] });
    expect(hits.map((h) => h.id)).toEqual([long!.id]);
  });

  test('text: edges, state documents, jobs and metadata keep hard text exactly', async () => {
    const [one, two] = await insert(hardRecords());
    const metadata = { note: HARD_TEXTS.join('\n'), 'ключ 🔑': ['東京', { deep: 'مرحبا' }] };
    const edge = makeEdge(A, one!.id, two!.id, { metadata });
    const state = { lastUuid: 'uuid-ü-🚀', lines: HARD_TEXTS };
    await ctx.store().transaction(async (tx) => {
      await tx.insertEdges([edge]);
      await tx.setState(A, 'claude-code/cursor/session-ü-🚀', state, T0);
      await tx.enqueueJobs(
        [{ scope: A, kind: 'concepts.extract', payload: { text: HARD_TEXTS[0], ids: [one!.id] }, dedupeKey: 'ü-🚀' }],
        T0,
      );
    });
    await ctx.store().setMeta('cursor:会話-🚀', HARD_TEXTS[4]!);
    expect(await ctx.store().getEdges({ scopes: [A], ids: [one!.id] })).toStrictEqual([edge]);
    expect((await ctx.store().getState(A, 'claude-code/cursor/session-ü-🚀'))?.value).toStrictEqual(state);
    expect((await ctx.store().listState(A, 'claude-code/cursor/session-ü', 10)).map((s) => s.key)).toEqual([
      'claude-code/cursor/session-ü-🚀',
    ]);
    expect(await ctx.store().getMeta('cursor:会話-🚀')).toBe(HARD_TEXTS[4]);
    const [job] = await ctx
      .store()
      .claimJobs({ kinds: ['concepts.extract'], scopes: [A], owner: 'w-ü', limit: 5, leaseMs: 60_000, now: T0 + 1 });
    expect(job?.payload).toStrictEqual({ text: HARD_TEXTS[0], ids: [one!.id] });
  });
}
