/**
 * The engine's API on a real SQLite file (hash embedder: fast and deterministic).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HashEmbedder } from '../../src/embeddings/hash/index.js';
import { join } from 'node:path';
import { Engram, isEngramError, ManualClock, type Embedder } from '../../src/index.js';
import { tempDir, tempEngram } from '../helpers/temp.js';

const isCode = (code: string) => (e: unknown) => isEngramError(e) && e.code === code;

describe('Engram engine', () => {
  let ctx: Awaited<ReturnType<typeof tempEngram>>;
  let engram: Engram;
  const clock = new ManualClock(Date.parse('2024-03-01T10:00:00Z'));

  beforeEach(async () => {
    ctx = await tempEngram({ clock });
    engram = ctx.engram;
  });
  afterEach(async () => ctx.cleanup());

  it('remembers every field and returns it from get', async () => {
    const result = await engram.remember({
      scope: 'acme/users/alice',
      content: 'Alice moved to Lisbon in May and loves it there!',
      layer: 'episodic',
      occurredAt: '2024-02-20T09:00:00Z',
      importance: 0.8,
      tags: ['travel', 'travel', 'life'],
      pinned: true,
      source: { conversationId: 'c1', messageId: 'm7' },
    });
    expect(result.action).toBe('created');
    const view = await engram.get(result.id, { scopes: ['acme/users/alice'] });
    expect(view).toMatchObject({
      id: result.id,
      scope: 'acme/users/alice',
      layer: 'episodic',
      importance: 0.8,
      tags: ['travel', 'life'],
      pinned: true,
      status: 'active',
      mentionCount: 1,
      occurredAt: '2024-02-20T09:00:00.000Z',
      validFrom: '2024-02-20T09:00:00.000Z',
      validTo: null,
      recordedAt: '2024-03-01T10:00:00.000Z',
      invalidatedAt: null,
      provenance: { kind: 'episodic', sources: [{ conversationId: 'c1', messageId: 'm7' }], derivedFrom: [] },
    });
    expect(view.emotion?.valence).toBeGreaterThan(0);
    expect(view.entities).toContain('lisbon');
  });

  it('every invalid write is INVALID_INPUT and leaves the store unchanged', async () => {
    await engram.remember({ scope: 't/a', content: 'existing memory' });
    const before = await engram.stats({ scopes: ['t/a'] });
    const bad: unknown[] = [
      { scope: 't/a', content: '' },
      { scope: 't/a', content: '   \n ' },
      { scope: '../x', content: 'bad scope' },
      { scope: 't/a', content: 'too important', importance: 7 },
      { scope: 't/a', content: 'unknown layer', layer: 'dreams' },
      { scope: 't/a', content: 'x'.repeat(2 * 1024 * 1024) },
      { scope: 't/a', content: 'unknown field', colour: 'red' },
      { scope: 't/a', content: 'bad date', occurredAt: 'last tuesday-ish' },
      { scope: 't/a', content: 'inverted validity', validFrom: '2024-02-01', validTo: '2024-01-01' },
      { content: 'no scope' },
    ];
    for (const input of bad) {
      await expect(engram.remember(input as never), JSON.stringify(input).slice(0, 60)).rejects.toSatisfy(isCode('INVALID_INPUT'));
    }
    // A batch with one bad member writes nothing at all.
    await expect(
      engram.remember([
        { scope: 't/a', content: 'good' },
        { scope: 't/a', content: '' },
      ]),
    ).rejects.toSatisfy(isCode('INVALID_INPUT'));
    expect(await engram.stats({ scopes: ['t/a'] })).toEqual(before);
  });

  it('error messages say what was wrong and how to fix it', async () => {
    const error = await engram.remember({ scope: 't/a', content: 'x', importance: 7 }).catch((e: unknown) => e);
    expect(isEngramError(error) && error.message).toMatch(/importance.*(maximum|1)/);
    const noScope = await engram.recall('x', { scopes: [] }).catch((e: unknown) => e);
    expect(isEngramError(noScope) && noScope.message).toMatch(/pass at least one scope/);
  });

  it('re-ingesting the same source is idempotent; two identical events without a source are two records', async () => {
    const input = { scope: 't/a', content: 'User said hello', source: { conversationId: 'conv-1', messageId: '42' } };
    const first = await engram.remember(input);
    const second = await engram.remember(input);
    expect(second).toEqual({ id: first.id, action: 'unchanged' });
    const a = await engram.remember({ scope: 't/a', content: 'The robot beeped' });
    const b = await engram.remember({ scope: 't/a', content: 'The robot beeped' });
    expect(a.id).not.toBe(b.id);
    expect((await engram.stats({ scopes: ['t/a'] })).total).toBe(3);
  });

  it('update changes fields, keeps the old wording in history and re-embeds', async () => {
    const { id } = await engram.remember({ scope: 't/a', content: 'The staging database is on host alpha', layer: 'semantic' });
    clock.advance(1000);
    const updated = await engram.update(id, { content: 'The staging database is on host omega', tags: ['db'] }, { scope: 't/a' });
    expect(updated.content).toMatch(/omega/);
    expect(updated.tags).toEqual(['db']);
    expect((updated.history as { content: string }[])[0]?.content).toMatch(/alpha/);
    const { hits } = await engram.recall('omega', { scopes: ['t/a'] });
    expect(hits[0]?.id).toBe(id);
    await expect(engram.update(id, { tags: ['x'] }, { scope: 't/b' })).rejects.toSatisfy(isCode('NOT_FOUND'));
    await expect(engram.update(id, {}, { scope: 't/a' })).rejects.toSatisfy(isCode('INVALID_INPUT'));
  });

  it("update of the wording re-reads its entities: the old wording's go, the new one's come, given ones stay", async () => {
    const { id } = await engram.remember({
      scope: 't/a',
      layer: 'semantic',
      content: 'Alice works at Google',
      entities: ['alice', 'google', 'project-x'],
    });
    const updated = await engram.update(id, { content: 'Alice works at Microsoft' }, { scope: 't/a' });
    expect([...updated.entities].sort()).toEqual(['alice', 'microsoft', 'project-x']);
    expect((await engram.list({ scopes: ['t/a'], entity: 'microsoft' })).items.map((m) => m.id)).toEqual([id]);
    expect((await engram.list({ scopes: ['t/a'], entity: 'google' })).items).toEqual([]);
    // a change of tags alone leaves them
    expect([...(await engram.update(id, { tags: ['job'] }, { scope: 't/a' })).entities].sort()).toEqual([
      'alice',
      'microsoft',
      'project-x',
    ]);
  });

  it('update of occurredAt moves the start of validity that came from it, as a write sets it', async () => {
    const milan = await engram.remember({ scope: 't/a', content: 'Trip to Milan' });
    const moved = await engram.update(milan.id, { occurredAt: '2019-05-01' }, { scope: 't/a' });
    expect([moved.occurredAt, moved.validFrom]).toEqual(['2019-05-01T00:00:00.000Z', '2019-05-01T00:00:00.000Z']);
    expect((await engram.recall('trip', { scopes: ['t/a'], asOf: '2019-06-01' })).hits.map((h) => h.id)).toContain(milan.id);
    // a start given of its own stays
    const own = await engram.remember({ scope: 't/a', content: 'Visited Rome', occurredAt: '2020-01-01', validFrom: '2019-01-01' });
    expect((await engram.update(own.id, { occurredAt: '2020-02-01' }, { scope: 't/a' })).validFrom).toBe('2019-01-01T00:00:00.000Z');
  });

  it('a claim about an earlier time, written after a later one that says what changed, becomes its history', async () => {
    const pairs: [string, string][] = [
      ['We switched to bun.', 'We use pnpm.'],
      ['My car is now a red Tesla.', 'My car is a blue Toyota Corolla.'],
    ];
    for (const [later, earlier] of pairs) {
      const scope = `t/back-${later.length}`;
      await engram.remember({ scope, layer: 'semantic', content: later, validFrom: '2024-02-15' });
      const old = await engram.remember({ scope, layer: 'semantic', content: earlier, validFrom: '2024-02-01' });
      const stored = await engram.get(old.id, { scopes: [scope] });
      expect([later, stored.validTo]).toEqual([later, '2024-02-15T00:00:00.000Z']);
      const now = (await engram.list({ scopes: [scope] })).items.filter((m) => m.layer === 'semantic' && m.validTo === null);
      expect(now.map((m) => m.content)).toEqual([later]);
      expect((await engram.recall(earlier, { scopes: [scope], asOf: '2024-02-05' })).hits.map((h) => h.content)).toContain(earlier);
    }
  });

  it('remember and relate refuse a validity that ends before its default start, and store nothing', async () => {
    // validTo alone counts from now (2024-03-01), or from occurredAt when given
    await expect(
      engram.remember({ scope: 't/a', layer: 'semantic', content: 'Dana managed the team.', validTo: '2019-12-31' }),
    ).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(
        /validTo \(2019-12-31T00:00:00.000Z\) must be after validFrom, which defaults to the time of writing .*give validFrom/,
      ),
    });
    await expect(
      engram.remember({ scope: 't/a', content: 'Trip to Rome', occurredAt: '2019-06-01', validTo: '2018-12-01' }),
    ).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/validTo must be after validFrom, which defaults to occurredAt/),
    });
    // in a batch, the item is named and nothing of the batch is written
    await expect(
      engram.remember([
        { scope: 't/a', content: 'A fine note' },
        { scope: 't/a', layer: 'semantic', content: 'Dana managed the team.', validTo: '2019-12-31' },
      ]),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/\[1\]\.validTo/) });
    expect((await engram.stats({ scopes: ['t/a'] })).total).toBe(0);
    // a past validTo with its validFrom, or a future one alone, is fine
    const past = await engram.remember({
      scope: 't/a',
      layer: 'semantic',
      content: 'Dana managed the team.',
      validFrom: '2018-01-01',
      validTo: '2019-12-31',
    });
    expect((await engram.recall('Dana team', { scopes: ['t/a'], asOf: '2019-06-01' })).hits.map((h) => h.id)).toContain(past.id);
    const b = await engram.remember({ scope: 't/a', layer: 'semantic', content: 'Erin leads the project.', validTo: '2025-01-01' });
    await expect(engram.relate({ scope: 't/a', from: past.id, type: 'RELATED_TO', to: b.id, validTo: '2020-01-01' })).rejects.toMatchObject(
      {
        code: 'INVALID_INPUT',
        message: expect.stringMatching(/validTo \(2020-01-01T00:00:00.000Z\) must be after validFrom, which defaults to now/),
      },
    );
  });

  it('update keeps the validity an interval: a bound that crosses the stored one is refused and nothing changes', async () => {
    const { id } = await engram.remember({ scope: 't/a', layer: 'semantic', content: 'Erin drinks tea every morning.' });
    const before = await engram.get(id, { scopes: ['t/a'] });
    await expect(engram.update(id, { validTo: '2000-01-01' }, { scope: 't/a' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/validTo \(2000-01-01T00:00:00.000Z\) must be after validFrom \(2024-03-01/),
    });
    await expect(engram.update(id, { validFrom: '2030-01-01', validTo: '2029-01-01' }, { scope: 't/a' })).rejects.toSatisfy(
      isCode('INVALID_INPUT'),
    );
    const ended = await engram.update(id, { validTo: '2024-06-01' }, { scope: 't/a' });
    await expect(engram.update(id, { validFrom: '2024-07-01' }, { scope: 't/a' })).rejects.toMatchObject({
      message: expect.stringMatching(/validFrom \(2024-07-01T00:00:00.000Z\) must be before validTo/),
    });
    // both bounds moved together, or the end reopened: fine
    expect((await engram.update(id, { validFrom: '2024-07-01', validTo: null }, { scope: 't/a' })).validTo).toBeNull();
    expect(ended.validTo).toBe('2024-06-01T00:00:00.000Z');
    expect(before.validTo).toBeNull();
    expect((await engram.recall('Erin tea', { scopes: ['t/a'], asOf: '2024-08-01' })).hits[0]?.id).toBe(id);
  });

  it("a claim's edited wording is its claim: the slot is read again from it (none when it holds none)", async () => {
    const { id } = await engram.remember({ scope: 't/a', layer: 'semantic', content: 'Hank lives in Oslo.' });
    expect((await engram.get(id, { scopes: ['t/a'] })).claim).toMatchObject({ subject: 'hank', value: 'oslo' });
    const edited = await engram.update(id, { content: 'Hank lives in Rome.' }, { scope: 't/a' });
    expect(edited.claim).toMatchObject({ subject: 'hank', value: 'rome' });
    const unclaimed = await engram.update(id, { content: 'Thanks a lot!' }, { scope: 't/a' });
    expect(unclaimed.claim).toBeUndefined();
    expect((unclaimed.history as { content: string }[]).map((h) => h.content)).toEqual(['Hank lives in Oslo.', 'Hank lives in Rome.']);
  });

  it('relate refuses metadata nested too deep with INVALID_INPUT, whatever the depth', async () => {
    const [a, b] = await engram.remember([
      { scope: 't/a', content: 'first' },
      { scope: 't/a', content: 'second' },
    ]);
    let metadata: Record<string, unknown> = { leaf: 'the api key sk-live-0123456789abcdef0123' };
    for (let depth = 0; depth < 5000; depth++) metadata = { next: metadata };
    await expect(engram.relate({ scope: 't/a', from: a!.id, type: 'RELATED_TO', to: b!.id, metadata })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/levels deep/),
    });
    expect(await engram.edges(a!.id, { scopes: ['t/a'] })).toEqual([]);
  });

  it("a long text's chunks are forgotten and restored with it, and an edit replaces them: the old wording is no longer recalled", async () => {
    const long =
      Array.from({ length: 12 }, (_, i) => `Section ${i}: the vault combination is kept by Bob, code word marmalade${i}.`).join('\n\n') +
      ' ' +
      'Filler about logistics. '.repeat(60);
    const { id } = await engram.remember({ scope: 't/a', content: long });
    const chunkHits = async (query: string) =>
      (await engram.recall(query, { scopes: ['t/a'], trackAccess: false })).hits.filter((h) => h.content.includes('marmalade'));
    expect(await chunkHits('vault combination code word marmalade3')).not.toEqual([]);
    await engram.forget(id, { scope: 't/a' });
    expect(await chunkHits('vault combination code word marmalade3')).toEqual([]);
    const context = await engram.context({ scopes: ['t/a'], message: 'vault combination code word' });
    expect(context.markdown).not.toContain('marmalade');
    await engram.restore(id, { scope: 't/a' });
    expect(await chunkHits('vault combination code word marmalade3')).not.toEqual([]);

    // a short new wording: no chunks any more, the record itself is the hit
    await engram.update(id, { content: 'Nothing secret here any more.' }, { scope: 't/a' });
    expect(await chunkHits('vault combination code word marmalade3')).toEqual([]);
    expect((await engram.recall('nothing secret here', { scopes: ['t/a'] })).hits[0]?.id).toBe(id);
    // a long new wording is chunked again, and its chunks are what recall finds
    const longer =
      Array.from({ length: 12 }, (_, i) => `Part ${i}: the spare key sits under pot number ${i}.`).join('\n\n') +
      ' ' +
      'More filler. '.repeat(120);
    await engram.update(id, { content: longer }, { scope: 't/a' });
    const hits = (await engram.recall('spare key under pot number 7', { scopes: ['t/a'] })).hits;
    expect(hits[0]?.content).toContain('spare key');
    expect(hits[0]?.parentId).toBe(id);
    expect(await chunkHits('vault combination marmalade')).toEqual([]);
  });

  it('an update that leaves a long wording as it is embeds nothing and keeps its chunks', async () => {
    const inner = new HashEmbedder({ dimension: 64 });
    const embedded: string[] = [];
    const counting: Embedder = {
      name: inner.name,
      dimension: inner.dimension,
      embed: async (texts) => {
        embedded.push(...texts);
        return inner.embed(texts);
      },
    };
    const own = await tempEngram({ clock, embedder: counting });
    try {
      const long = Array.from({ length: 14 }, (_, i) => `Step ${i}: the boiler valve ${i} turns clockwise to open.`).join('\n\n');
      const { id } = await own.engram.remember({ scope: 't/a', content: long + ' ' + 'Notes. '.repeat(200) });
      const stored = (await own.engram.get(id, { scopes: ['t/a'] })).content;
      embedded.length = 0;
      const updated = await own.engram.update(id, { content: stored, tags: ['plant'] }, { scope: 't/a' });
      expect(updated.tags).toEqual(['plant']);
      expect(embedded).toEqual([]);
      const hits = (await own.engram.recall('boiler valve 9 turns clockwise', { scopes: ['t/a'] })).hits;
      expect(hits[0]?.parentId).toBe(id);
      // a changed wording is embedded, its chunks too
      await own.engram.update(id, { content: stored.replace('valve 9', 'valve nine') }, { scope: 't/a' });
      expect(embedded.length).toBeGreaterThan(2);
    } finally {
      await own.cleanup();
    }
  });

  it('a record restored after decay expired it stays restored, with the links its expiry closed', async () => {
    const day = 86_400_000;
    const start = clock.now();
    const note = await engram.remember({ scope: 't/a', content: 'Gus said the printer on floor 3 jams on A3 paper.', importance: 0.2 });
    const other = await engram.remember({
      scope: 't/a',
      content: 'The floor 3 printer is a Brother HL-L8360.',
      importance: 0.9,
      pinned: true,
    });
    await engram.relate({ scope: 't/a', from: note.id, type: 'RELATED_TO', to: other.id });
    clock.set(start + 8 * day);
    await engram.decay({ scope: 't/a' });
    clock.set(start + 45 * day);
    await engram.decay({ scope: 't/a' });
    expect((await engram.get(note.id, { scopes: ['t/a'] })).status).toBe('expired');
    expect(await engram.edges(note.id, { scopes: ['t/a'] })).toEqual([]);

    expect((await engram.restore(note.id, { scope: 't/a' })).status).toBe('active');
    expect((await engram.edges(note.id, { scopes: ['t/a'] })).map((e) => [e.type, e.other])).toEqual([['RELATED_TO', other.id]]);
    clock.set(start + 200 * day);
    await engram.decay({ scope: 't/a' });
    expect((await engram.get(note.id, { scopes: ['t/a'] })).status).toBe('active');
    clock.set(start);
  });

  it('a claim restored after a correction was written meets it: the correction supersedes it', async () => {
    const lisbon = await engram.remember({ scope: 't/a', layer: 'semantic', content: 'I live in Lisbon.' });
    await engram.forget(lisbon.id, { scope: 't/a' });
    clock.advance(1000);
    const porto = await engram.remember({ scope: 't/a', layer: 'semantic', content: 'Actually I moved to Porto.' });
    expect(porto.action).toBe('created');
    expect((await engram.restore(lisbon.id, { scope: 't/a' })).status).toBe('superseded');
    expect((await engram.get(porto.id, { scopes: ['t/a'] })).status).toBe('active');
    const current = (await engram.recall('Where do I live?', { scopes: ['t/a'] })).hits.map((h) => h.content);
    expect(current).toContain('Actually I moved to Porto.');
    expect(current).not.toContain('I live in Lisbon.');
  });

  it('an edit that restates a claim supersedes the claim it corrects, as a write would', async () => {
    const lisbon = await engram.remember({ scope: 't/a', layer: 'semantic', content: 'I live in Lisbon.' });
    clock.advance(1000);
    const other = await engram.remember({ scope: 't/a', layer: 'semantic', content: 'I work as a nurse.' });
    clock.advance(1000);
    await engram.update(other.id, { content: 'I live in Porto.' }, { scope: 't/a' });
    expect((await engram.get(lisbon.id, { scopes: ['t/a'] })).status).toBe('superseded');
    expect((await engram.get(other.id, { scopes: ['t/a'] })).status).toBe('active');
  });

  it('an edited episode supersedes nothing: episodes are events', async () => {
    const first = await engram.remember({ scope: 't/ep', content: 'I live in Lisbon.' });
    clock.advance(1000);
    const second = await engram.remember({ scope: 't/ep', content: 'We talked about the weather.' });
    clock.advance(1000);
    await engram.update(second.id, { content: 'Actually I moved to Porto.' }, { scope: 't/ep' });
    expect((await engram.get(first.id, { scopes: ['t/ep'] })).status).toBe('active');
  });

  it('a superseded claim keeps the end of validity its correction gave it: update cannot reopen it', async () => {
    const old = await engram.remember({ scope: 't/a', layer: 'semantic', content: 'Jo works at Acme.', validFrom: '2020-01-01' });
    await engram.remember({ scope: 't/a', layer: 'semantic', content: 'Jo works at Globex.', validFrom: '2023-06-01' });
    const superseded = await engram.get(old.id, { scopes: ['t/a'] });
    expect(superseded.status).toBe('superseded');
    await expect(engram.update(old.id, { validTo: null }, { scope: 't/a' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('unsupersede'),
    });
    await expect(engram.update(old.id, { validTo: '2030-01-01' }, { scope: 't/a' })).rejects.toSatisfy(isCode('INVALID_INPUT'));
    expect((await engram.recall('Where does Jo work?', { scopes: ['t/a'] })).hits.map((h) => h.content)).not.toContain('Jo works at Acme.');
    // moving the end earlier is allowed
    expect((await engram.update(old.id, { validTo: '2023-01-01' }, { scope: 't/a' })).validTo).toBe('2023-01-01T00:00:00.000Z');
  });

  it('a superseded claim that is forgotten and restored comes back superseded, and can be unsuperseded', async () => {
    const old = await engram.remember({ scope: 't/a', layer: 'semantic', content: 'The deploy target is staging.' });
    clock.advance(1000);
    await engram.remember({ scope: 't/a', layer: 'semantic', content: 'The deploy target moved from staging to production.' });
    expect((await engram.get(old.id, { scopes: ['t/a'] })).status).toBe('superseded');
    await engram.forget(old.id, { scope: 't/a' });
    expect((await engram.restore(old.id, { scope: 't/a' })).status).toBe('superseded');
    expect((await engram.stats({ scopes: ['t/a'] })).byStatus.superseded).toBe(1);
    expect((await engram.unsupersede(old.id, { scope: 't/a' })).status).toBe('active');
  });

  it('claims attached to different things never correct each other; attached to the same thing they do', async () => {
    const of = (entity: string, content: string) => ({ scope: 't/a', layer: 'semantic' as const, content, entities: [entity] });
    const blue = await engram.remember(of('Alice_Smith', 'Favorite color is blue'));
    clock.advance(1000);
    const green = await engram.remember(of('Bob_Jones', 'Favorite color is green'));
    expect(green.action).toBe('created');
    expect((await engram.get(blue.id, { scopes: ['t/a'] })).status).toBe('active');
    clock.advance(1000);
    const red = await engram.remember(of('Alice_Smith', 'Favorite color is now red'));
    expect(red.superseded).toEqual([blue.id]);
    expect((await engram.get(green.id, { scopes: ['t/a'] })).status).toBe('active');
    // entities a text names (its values) are no attachment: the office still moves
    const lisbon = await engram.remember({ scope: 't/a', layer: 'semantic', content: 'The office is in Lisbon.' });
    clock.advance(1000);
    expect((await engram.remember({ scope: 't/a', layer: 'semantic', content: 'The office moved to Berlin.' })).superseded).toEqual([
      lisbon.id,
    ]);
  });

  it("a value with an end of its own inside the current claim's span does not end it: the current value is still current after", async () => {
    const staging = await engram.remember({
      scope: 't/a',
      layer: 'semantic',
      content: 'The deploy target is staging.',
      validFrom: '2024-01-01',
    });
    clock.advance(1000);
    const qa = await engram.remember({
      scope: 't/a',
      layer: 'semantic',
      content: 'The deploy target is qa.',
      validFrom: '2024-02-01',
      validTo: '2024-02-10',
    });
    expect(qa.action).toBe('created');
    const kept = await engram.get(staging.id, { scopes: ['t/a'] });
    expect(kept).toMatchObject({ status: 'active', validTo: null });
    const at = async (asOf: string) =>
      (await engram.recall('what is the deploy target', { scopes: ['t/a'], asOf })).hits.map((h) => h.content).sort();
    expect(await at('2024-03-01')).toEqual(['The deploy target is staging.']);
    expect((await engram.recall('what is the deploy target', { scopes: ['t/a'] })).hits.map((h) => h.content)).toEqual([
      'The deploy target is staging.',
    ]);
    expect(await at('2024-02-05')).toContain('The deploy target is qa.');
    // an open-ended correction still supersedes
    clock.advance(1000);
    const prod = await engram.remember({
      scope: 't/a',
      layer: 'semantic',
      content: 'The deploy target is production.',
      validFrom: '2024-04-01',
    });
    expect(prod.superseded).toEqual([staging.id]);
  });

  it('a correction by a writer whose clock runs behind the one that wrote the claim still supersedes it, stamped after it', async () => {
    const dir = tempDir('engram-skew-');
    try {
      const path = join(dir.dir, 'shared.db');
      const T = Date.parse('2024-06-01T10:00:00Z');
      const a = await Engram.open({ path, embedder: 'hash', clock: new ManualClock(T) });
      const staging = await a.remember({ scope: 't/k', layer: 'semantic', content: 'The deploy target is staging' });
      await a.close();
      // B writes 50 ms later in real time, its clock 1 s behind A's
      const b = await Engram.open({ path, embedder: 'hash', clock: new ManualClock(T + 50 - 1000) });
      const prod = await b.remember({ scope: 't/k', layer: 'semantic', content: 'The deploy target moved to production' });
      expect(prod.superseded).toEqual([staging.id]);
      const [old, next] = [await b.get(staging.id, { scopes: ['t/k'] }), await b.get(prod.id, { scopes: ['t/k'] })];
      expect(Date.parse(next.recordedAt)).toBe(T + 1);
      expect(Date.parse(next.validFrom)).toBe(T + 1);
      expect(Date.parse(old.invalidatedAt as string)).toBeGreaterThanOrEqual(Date.parse(old.recordedAt));
      expect(Date.parse(old.validTo as string)).toBe(T + 1);
      await b.close();
      const reader = await Engram.open({ path, embedder: 'hash', clock: new ManualClock(T + 3_600_000) });
      expect((await reader.recall('deploy target', { scopes: ['t/k'] })).hits.map((h) => h.content)).toEqual([
        'The deploy target moved to production',
      ]);
      await reader.close();
    } finally {
      dir.cleanup();
    }
  });

  it('a past fact recorded late is history the current claim followed, not a correction of it', async () => {
    const lisbon = await engram.remember({ scope: 't/a', layer: 'semantic', content: 'The office is in Lisbon.', validFrom: '2024-02-01' });
    clock.advance(1000);
    // ended before Lisbon began: no conflict at all
    const berlin = await engram.remember({
      scope: 't/a',
      layer: 'semantic',
      content: 'The office is in Berlin.',
      validFrom: '2023-01-01',
      validTo: '2024-02-01',
    });
    expect(berlin.action).toBe('created');
    expect((await engram.get(lisbon.id, { scopes: ['t/a'] })).status).toBe('active');
    const now = async () =>
      (await engram.recall('where is the office', { scopes: ['t/a'], asOf: '2024-06-01' })).hits.map((h) => h.content);
    expect(await now()).toEqual(['The office is in Lisbon.']);
    expect((await engram.recall('where is the office', { scopes: ['t/a'], asOf: '2023-06-01' })).hits.map((h) => h.content)).toEqual([
      'The office is in Berlin.',
    ]);
    // open-ended but older than Berlin and Lisbon: it held until the next of them (Berlin) began
    clock.advance(1000);
    const paris = await engram.remember({ scope: 't/a', layer: 'semantic', content: 'The office is in Paris.', validFrom: '2022-01-01' });
    expect(paris.action).toBe('created');
    const closed = await engram.get(paris.id, { scopes: ['t/a'] });
    expect(closed.validTo).toBe('2023-01-01T00:00:00.000Z');
    expect(await now()).toEqual(['The office is in Lisbon.']);
    expect((await engram.recall('where is the office', { scopes: ['t/a'], asOf: '2023-06-01' })).hits.map((h) => h.content)).toEqual([
      'The office is in Berlin.',
    ]);
    expect((await engram.get(lisbon.id, { scopes: ['t/a'] })).validTo).toBeNull();
  });

  it('versions recorded out of order hold one value at each instant: a late one splits the version it falls in', async () => {
    const scope = 't/chain';
    const say = async (target: string, validFrom: string) => {
      clock.advance(1000);
      return (await engram.remember({ scope, layer: 'semantic', content: `The deploy target is ${target}`, validFrom })).id;
    };
    const ids = new Map<string, string>();
    // arrival order is not valid-time order: each late one falls inside (or before) a version already stored
    for (const [target, from] of [
      ['production', '2023-06-01'],
      ['staging', '2023-01-01'],
      ['kubernetes', '2023-12-01'],
      ['qa', '2023-03-01'],
      ['canary', '2023-09-01'],
    ] as const)
      ids.set(target, await say(target, from));
    const at = async (asOf: string) =>
      (await engram.recall('deploy target', { scopes: [scope], asOf })).hits.map((h) => h.content.replace('The deploy target is ', ''));
    expect(await at('2023-02-01')).toEqual(['staging']);
    expect(await at('2023-04-01')).toEqual(['qa']);
    expect(await at('2023-07-01')).toEqual(['production']);
    expect(await at('2023-10-01')).toEqual(['canary']);
    expect(await at('2023-12-15')).toEqual(['kubernetes']);
    expect((await engram.recall('deploy target', { scopes: [scope] })).hits.map((h) => h.id)).toEqual([ids.get('kubernetes')]);
    // each version ends where the next begins
    const versions = (await engram.history(ids.get('kubernetes') as string, { scopes: [scope] })).versions;
    expect(versions.map((v) => v.content.replace('The deploy target is ', ''))).toEqual([
      'staging',
      'qa',
      'production',
      'canary',
      'kubernetes',
    ]);
    for (const [i, v] of versions.entries()) expect(v.validTo).toBe(versions[i + 1]?.validFrom ?? null);
  });

  it("moving a correction's start moves the end of what it superseded (and only an end it set)", async () => {
    const scope = 't/move';
    const staging = await engram.remember({ scope, layer: 'semantic', content: 'The deploy target is staging', validFrom: '2023-01-01' });
    clock.advance(1000);
    const production = await engram.remember({
      scope,
      layer: 'semantic',
      content: 'The deploy target moved to production',
      validFrom: '2023-06-01',
    });
    expect(production.superseded).toEqual([staging.id]);
    const at = async (asOf: string) => (await engram.recall('deploy target', { scopes: [scope], asOf })).hits.map((h) => h.id);
    const end = async (id: string) => (await engram.get(id, { scopes: [scope] })).validTo;
    clock.advance(1000);
    await engram.update(production.id, { validFrom: '2023-03-01' }, { scope });
    expect(await end(staging.id)).toBe('2023-03-01T00:00:00.000Z');
    expect(await at('2023-04-01')).toEqual([production.id]);
    // later: no gap
    clock.advance(1000);
    await engram.update(production.id, { validFrom: '2023-08-01' }, { scope });
    expect(await end(staging.id)).toBe('2023-08-01T00:00:00.000Z');
    expect(await at('2023-07-01')).toEqual([staging.id]);
    // before the version it superseded began: refused, and nothing moves (staging would have no time left)
    await expect(engram.update(production.id, { validFrom: '2022-12-01' }, { scope })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(
        /validFrom \(2022-12-01T00:00:00.000Z\) must be after 2023-01-01T00:00:00.000Z, when the version this memory superseded began/,
      ),
    });
    expect(await end(staging.id)).toBe('2023-08-01T00:00:00.000Z');
    expect((await engram.get(production.id, { scopes: [scope] })).validFrom).toBe('2023-08-01T00:00:00.000Z');

    // a version that had an end of its own keeps it when the correction moves past it
    const trial = await engram.remember({
      scope: 't/move-own',
      layer: 'semantic',
      content: 'The deploy target is canary',
      validFrom: '2023-01-01',
      validTo: '2023-05-01',
    });
    clock.advance(1000);
    const fix = await engram.remember({
      scope: 't/move-own',
      layer: 'semantic',
      content: 'The deploy target moved to blue',
      validFrom: '2023-04-01',
    });
    expect(fix.superseded).toEqual([trial.id]);
    clock.advance(1000);
    await engram.update(fix.id, { validFrom: '2023-09-01' }, { scope: 't/move-own' });
    expect((await engram.get(trial.id, { scopes: ['t/move-own'] })).validTo).toBe('2023-05-01T00:00:00.000Z');

    // a past fact recorded late ended where the current claim began: it follows that start too
    const lisbon = await engram.remember({
      scope: 't/move-late',
      layer: 'semantic',
      content: 'The office is in Lisbon.',
      validFrom: '2023-06-01',
    });
    clock.advance(1000);
    const paris = await engram.remember({
      scope: 't/move-late',
      layer: 'semantic',
      content: 'The office is in Paris.',
      validFrom: '2022-01-01',
    });
    expect((await engram.get(paris.id, { scopes: ['t/move-late'] })).validTo).toBe('2023-06-01T00:00:00.000Z');
    clock.advance(1000);
    await engram.update(lisbon.id, { validFrom: '2023-02-01' }, { scope: 't/move-late' });
    expect((await engram.get(paris.id, { scopes: ['t/move-late'] })).validTo).toBe('2023-02-01T00:00:00.000Z');
  });

  it('undoing a supersession (unsupersede, or purging the correction) gives a claim back the end of validity it had of its own', async () => {
    const trial = await engram.remember({
      scope: 't/a',
      layer: 'semantic',
      content: 'The deploy target is staging.',
      validFrom: '2024-01-01',
      validTo: '2024-06-30',
    });
    clock.advance(1000);
    const correction = await engram.remember({
      scope: 't/a',
      layer: 'semantic',
      content: 'The deploy target moved from staging to production.',
      validFrom: '2024-03-01',
    });
    expect(correction.action).toBe('superseded');
    expect((await engram.get(trial.id, { scopes: ['t/a'] })).validTo).toBe('2024-03-01T00:00:00.000Z');
    expect((await engram.unsupersede(trial.id, { scope: 't/a' })).validTo).toBe('2024-06-30T00:00:00.000Z');
    const after = (await engram.recall('deploy target staging', { scopes: ['t/a'], asOf: '2024-08-01' })).hits.map((h) => h.id);
    expect(after).not.toContain(trial.id);

    // the same through purge: superseded again by a new correction, which is then purged
    clock.advance(1000);
    const again = await engram.remember({
      scope: 't/a',
      layer: 'semantic',
      content: 'The deploy target moved from staging to canary.',
      validFrom: '2024-04-01',
    });
    expect(again.superseded).toContain(trial.id);
    await engram.purge({ scope: 't/a', ids: [again.id], confirm: true });
    const restored = await engram.get(trial.id, { scopes: ['t/a'] });
    expect([restored.status, restored.validTo]).toEqual(['active', '2024-06-30T00:00:00.000Z']);
  });

  it('forget hides a memory from recall; restore brings it back and counts as an access', async () => {
    const { id } = await engram.remember({ scope: 't/a', content: 'The wifi password is on the fridge' });
    await engram.forget(id, { scope: 't/a' });
    expect((await engram.recall('wifi password', { scopes: ['t/a'] })).hits).toHaveLength(0);
    expect((await engram.get(id, { scopes: ['t/a'] })).status).toBe('deleted');
    const restored = await engram.restore(id, { scope: 't/a' });
    expect(restored.status).toBe('active');
    expect((await engram.recall('wifi password', { scopes: ['t/a'] })).hits[0]?.id).toBe(id);
  });

  it('every hit explains itself per channel', async () => {
    await engram.remember([
      { scope: 't/a', content: 'Grace Hopper popularised the term debugging' },
      { scope: 't/a', content: 'The cafeteria serves soup on Mondays' },
    ]);
    const { hits } = await engram.recall('who popularised debugging', { scopes: ['t/a'] });
    const top = hits[0];
    expect(top?.content).toMatch(/Hopper/);
    expect(top?.why.channels.lexical).toMatchObject({ rank: 1 });
    expect(top?.why.channels.semantic?.rank).toBeGreaterThanOrEqual(1);
    expect(top?.why).toMatchObject({
      fused: expect.any(Number),
      relevance: expect.any(Number),
      recency: expect.any(Number),
      importance: expect.any(Number),
    });
    expect(top?.score).toBeGreaterThanOrEqual(top?.why.relevance ?? Infinity);
  });

  it('recall records accesses without blocking, and trackAccess:false leaves counts alone', async () => {
    const { id } = await engram.remember({ scope: 't/a', content: 'Remember the milk' });
    await engram.recall('milk', { scopes: ['t/a'], trackAccess: false });
    await engram.recall('milk', { scopes: ['t/a'] });
    await engram.recall('milk', { scopes: ['t/a'] });
    await engram.close();
    const { Engram } = await import('../../src/index.js');
    const reopened = await Engram.open({ path: ctx.path });
    try {
      const view = await reopened.get(id, { scopes: ['t/a'] });
      expect(view.accessCount).toBe(2);
      expect(view.lastAccessedAt).not.toBeNull();
    } finally {
      await reopened.close();
    }
  });
});
