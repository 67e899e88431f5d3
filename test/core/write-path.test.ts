/**
 * The write path end to end on a real SQLite file: supersession, dedup, bi-temporal reads, chunking,
 * salience, undo. Pair sets are the ones written before the claim rules were tuned.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isEngramError, ManualClock, type Engram } from '../../src/index.js';
import { tempEngram } from '../helpers/temp.js';
import { COMPATIBLE_PAIRS, CORRECTION_PAIRS, AGREEING_PAIRS } from './claims/pairs.js';

const DAY = 86_400_000;

describe('write path: claims that stay true', () => {
  let ctx: Awaited<ReturnType<typeof tempEngram>>;
  let engram: Engram;
  let clock: ManualClock;

  beforeEach(async () => {
    clock = new ManualClock(Date.parse('2024-01-10T12:00:00Z'));
    ctx = await tempEngram({ clock });
    engram = ctx.engram;
  });
  afterEach(async () => ctx.cleanup());

  it('a correction supersedes; default, asOf and knownAt reads each see the right version', async () => {
    const t0 = clock.now();
    const old = await engram.remember({ scope: 't/a', layer: 'semantic', content: 'The deploy target is staging.' });
    clock.advance(10 * DAY);
    const t1 = clock.now();
    const fix = await engram.remember({ scope: 't/a', layer: 'semantic', content: 'The deploy target moved from staging to production.' });
    expect(fix).toEqual({ id: expect.any(String), action: 'superseded', superseded: [old.id] });

    const current = await engram.recall('deploy target', { scopes: ['t/a'] });
    expect(current.hits.map((h) => h.id)).toEqual([fix.id]);

    const between = await engram.recall('deploy target', { scopes: ['t/a'], asOf: t0 + 5 * DAY });
    expect(between.hits.map((h) => h.id)).toEqual([old.id]);

    const believed = await engram.recall('deploy target', { scopes: ['t/a'], knownAt: t1 - DAY });
    expect(believed.hits.map((h) => h.id)).toEqual([old.id]);
    expect(believed.hits[0]?.status).toBe('superseded'); // its status today, though it was current then

    const all = await engram.recall('deploy target', { scopes: ['t/a'], includeSuperseded: true });
    const oldHit = all.hits.find((h) => h.id === old.id);
    expect(oldHit?.supersededBy).toBe(fix.id);
    expect(oldHit?.validTo).toBe(new Date(t1).toISOString());
    expect(oldHit?.invalidatedAt).toBe(new Date(t1).toISOString());

    const history = await engram.history(fix.id, { scopes: ['t/a'] });
    expect(history.versions.map((v) => v.id)).toEqual([old.id, fix.id]);
    expect(history.edges).toHaveLength(1);
    expect(history.edges[0]).toMatchObject({ from: fix.id, type: 'SUPERSEDES', to: old.id });
  });

  it('ownership transfer supersedes; an additive statement does not', async () => {
    const owner = await engram.remember({ scope: 't/a', layer: 'semantic', content: 'The billing service is owned by the payments team.' });
    const also = await engram.remember({ scope: 't/a', layer: 'semantic', content: 'The payments team also owns the refunds service.' });
    expect(also.action).toBe('created');
    expect((await engram.get(owner.id, { scopes: ['t/a'] })).status).toBe('active');
    const transfer = await engram.remember({
      scope: 't/a',
      layer: 'semantic',
      content: 'Ownership of the billing service was transferred to the platform team.',
    });
    expect(transfer.action).toBe('superseded');
    expect(transfer.superseded).toEqual([owner.id]);
    expect((await engram.get(also.id, { scopes: ['t/a'] })).status).toBe('active');
  });

  it('a thing someone has that "is now" something else supersedes what it was; a person\'s new role adds to the old', async () => {
    const scope = 'pa/users/maria';
    const pairs: Array<[string, string]> = [
      ['My car is a blue Toyota Corolla', 'My car is now a red Tesla Model 3'],
      ['My laptop is a ThinkPad X1', 'My laptop is now a MacBook Air'],
      ['Our office is a coworking space in Alfama', 'Our office is now a rented floor in Baixa'],
    ];
    const replaced: string[] = [];
    const current: string[] = [];
    for (const [before, after] of pairs) {
      const old = await engram.remember({ scope, layer: 'semantic', content: before });
      const next = await engram.remember({ scope, layer: 'semantic', content: after });
      expect(next, after).toMatchObject({ action: 'superseded', superseded: [old.id] });
      replaced.push(before);
      current.push(after);
    }
    const context = await engram.context({ scopes: [scope], message: 'what car do I drive?', budgetMs: 10_000 });
    const profile = context.parts.profile.items.map((item) => item.content);
    expect(profile).toEqual(expect.arrayContaining(current));
    for (const old of replaced) expect(profile).not.toContain(old);

    const doctor = await engram.remember({ scope: 't/alice', layer: 'semantic', content: 'Alice is a doctor' });
    const mother = await engram.remember({ scope: 't/alice', layer: 'semantic', content: 'Alice is now a mother' });
    expect(mother.action).toBe('created');
    expect((await engram.get(doctor.id, { scopes: ['t/alice'] })).status).toBe('active');
  });

  it('stating the same fact 100 times leaves one record with mentionCount 100', async () => {
    const first = await engram.remember({ scope: 't/a', layer: 'semantic', content: 'Alice is allergic to peanuts.', tags: ['health'] });
    for (let i = 1; i < 100; i += 1) {
      const again = await engram.remember({
        scope: 't/a',
        layer: 'semantic',
        content: 'Alice is allergic to peanuts.',
        tags: i === 50 ? ['food'] : [],
      });
      expect(again).toEqual({ id: first.id, action: 'merged', mergedInto: first.id });
    }
    const record = await engram.get(first.id, { scopes: ['t/a'] });
    expect(record.mentionCount).toBe(100);
    expect(record.tags).toEqual(['health', 'food']);
    expect((await engram.stats({ scopes: ['t/a'] })).total).toBe(1);
  });

  it('a paraphrased restatement merges and keeps the new wording in history', async () => {
    const first = await engram.remember({
      scope: 't/a',
      layer: 'semantic',
      content: "Bob's favourite colour is blue.",
      source: { conversationId: 'c', messageId: '1' },
    });
    const again = await engram.remember({
      scope: 't/a',
      layer: 'semantic',
      content: "Bob's favourite colour is blue!",
      source: { conversationId: 'c', messageId: '2' },
    });
    expect(again.action).toBe('merged');
    const record = await engram.get(first.id, { scopes: ['t/a'] });
    expect(record.content).toBe("Bob's favourite colour is blue.");
    expect(record.provenance.sources).toHaveLength(2);
    // re-sending an already merged source changes nothing
    const resent = await engram.remember({
      scope: 't/a',
      layer: 'semantic',
      content: "Bob's favourite colour is blue!",
      source: { conversationId: 'c', messageId: '2' },
    });
    expect(resent.action).toBe('unchanged');
    expect((await engram.get(first.id, { scopes: ['t/a'] })).mentionCount).toBe(2);
  });

  it('episodes are events: identical turns are two records and nothing is superseded', async () => {
    const a = await engram.remember({ scope: 't/a', content: 'The deploy target is staging.' });
    const b = await engram.remember({ scope: 't/a', content: 'The deploy target moved from staging to production.' });
    const c = await engram.remember({ scope: 't/a', content: 'The deploy target moved from staging to production.' });
    expect([a.action, b.action, c.action]).toEqual(['created', 'created', 'created']);
    expect(new Set([a.id, b.id, c.id]).size).toBe(3);
  });

  it('undo sticks: unsupersede restores the claim and a second write of the correction does not supersede it again', async () => {
    const old = await engram.remember({ scope: 't/a', layer: 'semantic', content: 'The default branch is master.' });
    const fix = await engram.remember({ scope: 't/a', layer: 'semantic', content: 'The default branch is main.' });
    expect(fix.action).toBe('superseded');
    const restored = await engram.unsupersede(old.id, { scope: 't/a' });
    expect(restored).toMatchObject({ status: 'active', validTo: null, invalidatedAt: null });
    const again = await engram.remember({ scope: 't/a', layer: 'semantic', content: 'The default branch is main.' });
    expect(again.action).not.toBe('superseded');
    expect((await engram.get(old.id, { scopes: ['t/a'] })).status).toBe('active');
    await expect(engram.unsupersede(old.id, { scope: 't/a' })).rejects.toSatisfy((e: unknown) => isEngramError(e) && e.code === 'CONFLICT');
    const history = await engram.history(old.id, { scopes: ['t/a'] });
    expect(history.edges[0]?.invalidatedAt).not.toBeNull();
  });

  it('a 20,000-character document is chunked; a sentence from its middle recalls its chunk with the parent id', async () => {
    const sentences = Array.from(
      { length: 260 },
      (_, i) => `Paragraph filler sentence number ${i} talks about routine maintenance of system ${i % 17}.`,
    );
    sentences[130] = 'The emergency generator in building seven is tested every second Thursday at dawn.';
    const text = sentences.join(' ');
    expect(text.length).toBeGreaterThan(20_000);
    const result = await engram.remember({ scope: 't/doc', content: text, layer: 'semantic' });
    expect(result.chunks?.length).toBeGreaterThan(5);
    const { hits } = await engram.recall('when is the emergency generator tested?', { scopes: ['t/doc'], k: 3 });
    expect(hits[0]?.parentId).toBe(result.id);
    expect(hits[0]?.content).toMatch(/emergency generator in building seven/);
    expect(hits.every((h) => h.id !== result.id)).toBe(true);
    const parent = await engram.get(result.id, { scopes: ['t/doc'] });
    expect(parent.content).toBe(text);
  });

  it('surprise: a repeat scores lower than a novel statement in the same scope', async () => {
    await engram.remember({ scope: 't/s', content: 'The robot vacuum got stuck under the sofa again.' });
    const repeat = await engram.remember({ scope: 't/s', content: 'The robot vacuum got stuck under the sofa again.' });
    const novel = await engram.remember({ scope: 't/s', content: 'A hailstorm cracked the greenhouse roof panels.' });
    const [r, n] = await Promise.all([engram.get(repeat.id, { scopes: ['t/s'] }), engram.get(novel.id, { scopes: ['t/s'] })]);
    expect(r.surprise).toBeLessThan(n.surprise);
  });

  it('surprise in a batch longer than one vector scan: a late repeat finds its twin among 1,300 references', async () => {
    const words = ['amber', 'basalt', 'cedar', 'dune', 'ember', 'fjord', 'glacier', 'harbour', 'iris', 'juniper', 'kelp', 'lagoon'];
    // 256 earlier memories, then one batch of 1,100 distinct events and a repeat of its 901st
    const note = (i: number) =>
      `Note ${i}: ${words[i % 12]} ${words[Math.floor(i / 12) % 12]} ${words[Math.floor(i / 144) % 12]} item${i} code${i * 7}.`;
    await engram.remember(Array.from({ length: 256 }, (_, i) => ({ scope: 't/n', content: note(5000 + i) })));
    const batch = [...Array.from({ length: 1100 }, (_, i) => note(i)), note(900)].map((content) => ({ scope: 't/n', content }));
    const results = await engram.remember(batch);
    const [first, repeat] = await Promise.all([
      engram.get((results[900] as { id: string }).id, { scopes: ['t/n'] }),
      engram.get((results[1100] as { id: string }).id, { scopes: ['t/n'] }),
    ]);
    // the twin is reference 1,157 (256 recent + 900 of the batch): past the 1,024 rows one scan reads
    expect(repeat.surprise).toBeLessThan(0.05);
    expect(first.surprise).toBeGreaterThan(repeat.surprise + 0.2);
  });

  it('surprise of a batch spanning scopes equals writing its events one by one (each scope read in one go)', async () => {
    const note = (scope: string, i: number) => ({ scope, content: `${scope} note ${i}: the ${['kiln', 'loom', 'anvil'][i % 3]} ${i}` });
    const scopes = ['t/one', 't/two', 't/three'];
    for (const scope of scopes) await engram.remember(Array.from({ length: 5 }, (_, i) => note(scope, i)));
    // one batch interleaving the scopes, with a repeat of an earlier note of each
    const batch = [5, 6, 7].flatMap((i) => scopes.map((scope) => note(scope, i))).concat(scopes.map((scope) => note(scope, 2)));
    const other = await tempEngram({ clock });
    try {
      for (const scope of scopes) await other.engram.remember(Array.from({ length: 5 }, (_, i) => note(scope, i)));
      const together = await engram.remember(batch);
      const alone: string[] = [];
      for (const input of batch) alone.push((await other.engram.remember(input)).id);
      const surprise = async (e: Engram, id: string, scope: string) => (await e.get(id, { scopes: [scope] })).surprise;
      for (let i = 0; i < batch.length; i++) {
        const scope = batch[i]!.scope;
        expect(await surprise(engram, (together[i] as { id: string }).id, scope)).toBeCloseTo(
          await surprise(other.engram, alone[i]!, scope),
          6,
        );
      }
      // the repeats are the least surprising of their scope's writes
      const repeat = await surprise(engram, (together[9] as { id: string }).id, 't/one');
      expect(repeat).toBeLessThan(await surprise(engram, (together[0] as { id: string }).id, 't/one'));
    } finally {
      await other.cleanup();
    }
  });

  it('a dated past fact is history beside the current one; going back to a place supersedes', async () => {
    const scope = 't/history';
    const porto = await engram.remember({ scope, layer: 'semantic', content: 'I live in Porto' });
    const lisbon = await engram.remember({ scope, layer: 'semantic', content: 'I lived in Lisbon from 2019 to 2022' });
    expect(lisbon.action).toBe('created');
    const google = await engram.remember({ scope, layer: 'semantic', content: 'I work at Google' });
    const microsoft = await engram.remember({ scope, layer: 'semantic', content: 'I worked at Microsoft from 2010 to 2015' });
    expect(microsoft.action).toBe('created');
    for (const id of [porto.id, lisbon.id, google.id, microsoft.id])
      expect((await engram.get(id, { scopes: [scope] })).status).toBe('active');

    const back = await engram.remember({ scope, layer: 'semantic', content: 'I moved back to Lisbon' });
    expect(back).toMatchObject({ action: 'superseded', superseded: [porto.id] });
    expect((await engram.get(lisbon.id, { scopes: [scope] })).status).toBe('active');
  });

  it('a correction of one clause keeps the others current: "I work as a nurse." survives "I moved to Porto"', async () => {
    const both = await engram.remember({ scope: 't/c', layer: 'semantic', content: 'I live in Lisbon. I work as a nurse.' });
    const alice = await engram.remember({ scope: 't/c', layer: 'semantic', content: 'Alice lives in Berlin. She works at SAP.' });
    clock.advance(DAY);
    const porto = await engram.remember({ scope: 't/c', layer: 'semantic', content: 'Actually I moved to Porto.' });
    expect(porto).toMatchObject({ action: 'superseded', superseded: [both.id] });
    await engram.remember({ scope: 't/c', layer: 'semantic', content: 'Alice moved to Paris.' });
    const active = async (scope: string) => (await engram.list({ scopes: [scope] })).items.filter((m) => m.status === 'active');
    const current = await active('t/c');
    const nurse = current.find((m) => m.content === 'I work as a nurse.');
    expect(nurse?.provenance.derivedFrom).toEqual([both.id]);
    expect(nurse?.validFrom).toBe((await engram.get(both.id, { scopes: ['t/c'] })).validFrom);
    expect(current.map((m) => m.content)).toContain('Alice works at SAP.');
    expect(current.map((m) => m.content)).not.toContain('I live in Lisbon. I work as a nurse.');
    expect((await engram.get(alice.id, { scopes: ['t/c'] })).status).toBe('superseded');
    // the kept part has a vector of its own words, not the corrected statement's
    const vectors = await engram.store.getEmbeddings('t/c', [both.id, nurse!.id]);
    expect(Array.from(vectors.get(nurse!.id)!)).not.toEqual(Array.from(vectors.get(both.id)!));
    // undoing the correction makes the whole statement current again, and its kept part goes
    await engram.unsupersede(both.id, { scope: 't/c' });
    expect((await active('t/c')).map((m) => m.content)).not.toContain('I work as a nurse.');
  });

  it('a correction of one of a sentence\'s joined predicates keeps the others current ("… and work as a nurse")', async () => {
    const active = async (scope: string) =>
      (await engram.list({ scopes: [scope] })).items.filter((m) => m.status === 'active').map((m) => m.content);
    const cases: ReadonlyArray<readonly [string, string, readonly string[]]> = [
      ['I live in Lisbon and work as a nurse.', 'I moved to Porto.', ['I work as a nurse.']],
      ['I live in Lisbon and I work as a nurse.', 'I moved to Porto.', ['I work as a nurse.']],
      // the clauses kept from one statement are one claim, as across sentences
      ['I live in Lisbon, work as a nurse and drive a Tesla.', 'Actually I moved to Porto.', ['I work as a nurse. I drive a Tesla.']],
    ];
    for (const [i, [statement, correction, kept]] of cases.entries()) {
      const scope = `t/joined${i}`;
      const old = await engram.remember({ scope, layer: 'semantic', content: statement });
      clock.advance(DAY);
      expect(await engram.remember({ scope, layer: 'semantic', content: correction })).toMatchObject({
        action: 'superseded',
        superseded: [old.id],
      });
      const current = await active(scope);
      expect(current).toEqual(expect.arrayContaining([...kept]));
      expect(current.join(' ')).not.toMatch(/Lisbon/);
    }
  });

  it('a restatement that differs by an invisible character or a Unicode form merges, with one entity', async () => {
    const scope = 't/invisible';
    const editor = await engram.remember({ scope, layer: 'semantic', content: 'My favourite editor is Neovim.' });
    for (const invisible of ['\u200b', '\u00ad', '\u2060', '\u200c'])
      expect(await engram.remember({ scope, layer: 'semantic', content: `My favourite editor is Neo${invisible}vim.` })).toMatchObject({
        action: 'merged',
        id: editor.id,
      });
    const city = await engram.remember({ scope, layer: 'semantic', content: 'I live in São Paulo.'.normalize('NFC') });
    expect(await engram.remember({ scope, layer: 'semantic', content: 'I live in São Paulo.'.normalize('NFD') })).toMatchObject({
      action: 'merged',
      id: city.id,
    });
    const merged = await engram.get(city.id, { scopes: [scope] });
    expect(merged.entities.filter((entity) => entity.normalize('NFC') === 'são paulo')).toEqual(['são paulo']);
    // no look-alike wording in its history
    expect((merged as { data?: { history?: unknown[] } }).data?.history ?? []).toEqual([]);
  });

  it('keeps nothing that would change meaning or repeat a current claim', async () => {
    const active = async (scope: string) =>
      (await engram.list({ scopes: [scope] })).items.filter((m) => m.status === 'active').map((m) => m.content);
    // a clause about something else ("It is red") is not rewritten to be about the user
    await engram.remember({ scope: 't/e', layer: 'semantic', content: 'I live in Lisbon. I drive a Tesla. It is red.' });
    clock.advance(DAY);
    await engram.remember({ scope: 't/e', layer: 'semantic', content: 'Actually I moved to Porto.' });
    expect(await active('t/e')).toEqual(expect.arrayContaining(['I drive a Tesla.']));
    expect((await active('t/e')).join(' ')).not.toMatch(/I is red/);
    // "Bob and I" is one subject, not a clause about the user
    await engram.remember({ scope: 't/f', layer: 'semantic', content: 'The call with Bob and I is at 3pm.' });
    clock.advance(DAY);
    expect(
      (await engram.remember({ scope: 't/f', layer: 'semantic', content: 'The standup with Carol and I is at 10am.' })).action,
    ).not.toBe('superseded');
    // a clause a current claim already says is not kept twice
    await engram.remember({ scope: 't/g', layer: 'semantic', content: 'I work as a nurse.' });
    clock.advance(DAY);
    await engram.remember({ scope: 't/g', layer: 'semantic', content: 'I live in Lisbon. I work as a nurse.' });
    clock.advance(DAY);
    await engram.remember({ scope: 't/g', layer: 'semantic', content: 'Actually I moved to Porto.' });
    expect((await active('t/g')).filter((c) => c.includes('nurse'))).toHaveLength(1);
  });

  it("one speaker's statement does not correct another's", async () => {
    const turns = [
      'Maria: My family has been there for me all the way.',
      'John: My family is my motivation and they keep me going.',
      'Joanna: I got the idea for this script from a dream.',
      'Nate: I got them a new friend.',
    ];
    for (const [i, content] of turns.entries()) {
      clock.advance(DAY);
      await engram.remember({ scope: 't/s', content, capture: true, source: { conversationId: 'c', messageId: `m${i}` } });
    }
    const claims = (await engram.list({ scopes: ['t/s'], layers: ['semantic'] })).items;
    expect(claims.length).toBeGreaterThan(0);
    expect(claims.filter((c) => c.status === 'superseded').map((c) => c.content)).toEqual([]);
    // the same speaker still corrects themself, and what she said besides stays hers
    await engram.remember({ scope: 't/s', layer: 'semantic', content: 'Maria: I live in Lisbon. I work as a nurse.' });
    clock.advance(DAY);
    expect((await engram.remember({ scope: 't/s', layer: 'semantic', content: 'John: I live in Porto.' })).action).not.toBe('superseded');
    expect((await engram.remember({ scope: 't/s', layer: 'semantic', content: 'Maria: Actually I moved to Porto.' })).action).toBe(
      'superseded',
    );
    const current = (await engram.list({ scopes: ['t/s'], layers: ['semantic'] })).items.filter((m) => m.status === 'active');
    expect(current.map((m) => m.content)).toContain('Maria: I work as a nurse.');
  });

  it('an edit or a restore that supersedes a statement keeps its uncorrected clause too', async () => {
    const active = async () => (await engram.list({ scopes: ['t/h'] })).items.filter((m) => m.status === 'active').map((m) => m.content);
    const both = await engram.remember({ scope: 't/h', layer: 'semantic', content: 'I live in Lisbon. I work as a nurse.' });
    clock.advance(DAY);
    const other = await engram.remember({ scope: 't/h', layer: 'semantic', content: 'I have a cat named Tom.' });
    clock.advance(DAY);
    await engram.update(other.id, { content: 'Actually I moved to Porto.' }, { scope: 't/h' });
    expect((await engram.get(both.id, { scopes: ['t/h'] })).status).toBe('superseded');
    expect(await active()).toContain('I work as a nurse.');
  });

  it('importance and emotion are scored on write when not given', async () => {
    const important = await engram.remember({ scope: 't/s', content: "My daughter's birthday is on March 3rd, never forget it!" });
    const trivial = await engram.remember({ scope: 't/s', content: 'ok cool' });
    const sad = await engram.remember({ scope: 't/s', content: 'I am heartbroken and furious that the launch failed again.' });
    const [i, t, s] = await Promise.all([important, trivial, sad].map((r) => engram.get(r.id, { scopes: ['t/s'] })));
    expect(i?.importance).toBeGreaterThan(t?.importance as number);
    expect(s?.emotion?.valence).toBeLessThan(0);
    expect(s?.emotion?.intensity).toBeGreaterThan(3);
  });
});

describe('write path: pair sets through remember (hash embedder)', () => {
  it('reports detection and false-supersession rates end to end', async () => {
    const ctx = await tempEngram();
    try {
      let scopeNo = 0;
      const run = async (pairs: readonly { old: string; new: string }[]) => {
        const actions: string[] = [];
        for (const pair of pairs) {
          const scope = `pairs/p${scopeNo++}`;
          await ctx.engram.remember({ scope, layer: 'semantic', content: pair.old });
          actions.push((await ctx.engram.remember({ scope, layer: 'semantic', content: pair.new })).action);
        }
        return actions;
      };
      const corrections = await run(CORRECTION_PAIRS);
      const compatible = await run(COMPATIBLE_PAIRS);
      const agreeing = await run(AGREEING_PAIRS);
      const detection = corrections.filter((a) => a === 'superseded').length / corrections.length;
      const falseRate = compatible.filter((a) => a === 'superseded').length / compatible.length;
      const merged = agreeing.filter((a) => a === 'merged').length / agreeing.length;
      console.log(
        `write path pairs: detection ${detection.toFixed(3)} (${corrections.length}), false supersession ${falseRate.toFixed(3)} (${compatible.length}), restatements merged ${merged.toFixed(3)} (${agreeing.length})`,
      );
      expect(detection).toBeGreaterThanOrEqual(0.95);
      expect(falseRate).toBeLessThanOrEqual(0.02);
      expect(agreeing.filter((a) => a === 'superseded')).toHaveLength(0);
    } finally {
      await ctx.cleanup();
    }
  }, 120_000);
});

const LOCOMO = fileURLToPath(new URL('../../../shared/datasets/locomo/locomo10.json', import.meta.url));

describe('write path: LoCoMo turns as episodes', () => {
  it('ingesting every turn merges and supersedes nothing', async () => {
    let data: { sample_id: string; conversation: Record<string, unknown> }[];
    try {
      data = JSON.parse(readFileSync(LOCOMO, 'utf8'));
    } catch {
      console.warn(`skipped: LoCoMo not found at ${LOCOMO}`);
      return;
    }
    const ctx = await tempEngram();
    try {
      const actions = new Map<string, number>();
      let turns = 0;
      for (const sample of data) {
        const conv = sample.conversation;
        const inputs = [];
        for (let s = 1; conv[`session_${s}`] !== undefined; s += 1) {
          for (const turn of conv[`session_${s}`] as { speaker: string; dia_id: string; text: string }[]) {
            inputs.push({
              scope: `locomo/${sample.sample_id}`,
              content: `${turn.speaker}: ${turn.text}`,
              source: { conversationId: sample.sample_id, messageId: turn.dia_id },
            });
          }
        }
        turns += inputs.length;
        for (let i = 0; i < inputs.length; i += 200) {
          for (const r of await ctx.engram.remember(inputs.slice(i, i + 200))) actions.set(r.action, (actions.get(r.action) ?? 0) + 1);
        }
      }
      expect(turns).toBeGreaterThan(5000);
      expect(Object.fromEntries(actions)).toEqual({ created: turns });
    } finally {
      await ctx.cleanup();
    }
  }, 300_000);
});
