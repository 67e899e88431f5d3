/**
 * Browse and purge over each backend: keyset pages that neither repeat nor skip while
 * records are written, every filter, scope selection, cursors that refuse tampering, and purge — the
 * only hard delete — removing a record and what was derived from it alone from every read path,
 * reinstating the predecessor of a purged correction, and auditing without content.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isEngramError } from '../../src/core/errors.js';
import { ManualClock } from '../../src/core/ports/clock.js';
import type { Engram } from '../../src/index.js';

const MINUTE = 60_000;
const DAY = 86_400_000;
const TOKEN = 'zqxjvorbluntide';

/** A raw row of the audit table. */
export interface AuditRow {
  actor: string;
  action: string;
  scope: string;
  count: number;
  details: string;
}

export interface BrowseContractOptions {
  name: string;
  open(clock: ManualClock): Promise<{
    engram: Engram;
    cleanup: () => Promise<void>;
    /** Every row of the audit table. */
    auditRows(): Promise<AuditRow[]>;
    /** Every row of every table of the store, as text (to look for a token). */
    everyRowText(): Promise<string>;
  }>;
}

async function expectInvalid(promise: Promise<unknown>, field: string, message?: RegExp): Promise<void> {
  try {
    await promise;
  } catch (error) {
    expect(isEngramError(error) && error.code).toBe('INVALID_INPUT');
    expect(JSON.stringify((error as Error & { details?: unknown }).details ?? {}) + (error as Error).message).toContain(field);
    if (message !== undefined) expect((error as Error).message).toMatch(message);
    return;
  }
  throw new Error('expected INVALID_INPUT');
}

/**
 * Six episodes about `marker` that went badly and three unrelated good ones: enough for a consolidation
 * to raise a caution on `marker`. Returns the six.
 */
async function sixBadOutcomes(engram: Engram, scope: string, marker: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < 6; i++) {
    const { id } = await engram.remember({
      scope,
      content: `Took ${marker} pills for my diagnosis, felt awful, day ${i}`,
      entities: [marker],
      importance: 0.9,
      emotion: { valence: -0.9, intensity: 0.8 },
      occurredAt: Date.parse('2024-05-01') + i * 86_400_000,
    });
    ids.push(id);
  }
  for (let i = 0; i < 3; i++)
    await engram.remember({
      scope,
      content: `Went running on day ${i}, felt great`,
      occurredAt: Date.parse('2024-05-10') + i * 86_400_000,
    });
  return ids;
}

export function runBrowseContract(options: BrowseContractOptions): void {
  describe(`Browse and purge over ${options.name}`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      while (cleanups.length > 0) await cleanups.pop()?.();
    });
    const open = async (start = Date.parse('2024-03-01T09:00:00Z')) => {
      const clock = new ManualClock(start);
      const opened = await options.open(clock);
      cleanups.push(opened.cleanup);
      return { ...opened, clock };
    };

    for (const order of ['desc', 'asc'] as const) {
      it(`pages by keyset (${order}) without repeating or skipping while records are written`, async () => {
        const { engram, clock } = await open();
        const before: string[] = [];
        for (let i = 0; i < 30; i++) {
          // pairs share a recordedAt, so the id breaks ties
          const batch = await engram.remember([
            { scope: 't/a', content: `event ${i} a` },
            { scope: 't/a', content: `event ${i} b` },
          ]);
          before.push(...batch.map((r) => r.id));
          clock.advance(MINUTE);
        }
        const seen: string[] = [];
        const keys: [number, string][] = [];
        let cursor: string | undefined;
        for (let page = 0; page < 50; page++) {
          const result = await engram.list({ scopes: ['t/a'], order, limit: 7, ...(cursor !== undefined ? { cursor } : {}) });
          for (const item of result.items) {
            seen.push(item.id);
            keys.push([Date.parse(item.recordedAt), item.id]);
          }
          // concurrent writers: newer records, and one back-dated to the middle of the range
          await engram.remember({ scope: 't/a', content: `written during page ${page}` });
          clock.advance(MINUTE);
          if (result.nextCursor === null) break;
          cursor = result.nextCursor;
        }
        expect(new Set(seen).size).toBe(seen.length);
        for (const id of before) expect(seen).toContain(id);
        for (let i = 1; i < keys.length; i++) {
          const [a, b] = [keys[i - 1]!, keys[i]!];
          const cmp = a[0] !== b[0] ? a[0] - b[0] : a[1] < b[1] ? -1 : 1;
          expect(order === 'asc' ? cmp < 0 : cmp > 0).toBe(true);
        }
      });
    }

    it('every filter narrows the list; sorts by importance, validFrom and accessedAt', async () => {
      const { engram, clock } = await open();
      const t0 = clock.now();
      const staging = await engram.remember({ scope: 't/f', layer: 'semantic', content: 'The deploy target is staging.', importance: 0.2 });
      clock.advance(DAY);
      const production = await engram.remember({
        scope: 't/f',
        layer: 'semantic',
        content: 'The deploy target moved from staging to production.',
        importance: 0.9,
      });
      clock.advance(DAY);
      const tagged = await engram.remember({
        scope: 't/f',
        content: 'Paged the ONCALL engineer about the outage.',
        tags: ['Ops', 'pager'],
        entities: ['Alice Smith'],
        importance: 0.5,
      });
      clock.advance(DAY);
      const rule = await engram.remember({
        scope: 't/f',
        layer: 'procedural',
        content: 'Always run the tests before a deploy.',
        validFrom: t0 - 10 * DAY,
        importance: 0.7,
      });
      clock.advance(DAY);
      const gone = await engram.remember({ scope: 't/f', content: 'A note nobody wants.', importance: 0.1 });
      await engram.forget(gone.id, { scope: 't/f' });
      await engram.remember({ scope: 't/other', content: 'Another scope entirely, deploy target included.' });
      const ids = async (input: Parameters<Engram['list']>[0]) => (await engram.list(input)).items.map((i) => i.id);
      const all = { scopes: ['t/f'] };

      expect(await ids(all)).toEqual([gone.id, rule.id, tagged.id, production.id, staging.id]);
      expect(await ids({ ...all, layers: ['semantic'] })).toEqual([production.id, staging.id]);
      expect(await ids({ ...all, layers: ['semantic', 'procedural'], order: 'asc' })).toEqual([staging.id, production.id, rule.id]);
      expect(await ids({ ...all, statuses: ['superseded'] })).toEqual([staging.id]);
      expect(await ids({ ...all, statuses: ['deleted', 'superseded'] })).toEqual([gone.id, staging.id]);
      expect(await ids({ ...all, statuses: ['active'] })).toEqual([rule.id, tagged.id, production.id]);
      expect(await ids({ ...all, tag: 'ops' })).toEqual([tagged.id]);
      expect(await ids({ ...all, tag: 'op' })).toEqual([]);
      expect(await ids({ ...all, entity: 'alice smith' })).toEqual([tagged.id]);
      expect(await ids({ ...all, text: 'DEPLOY TARGET' })).toEqual([production.id, staging.id]);
      expect(await ids({ ...all, text: 'oncall engineer' })).toEqual([tagged.id]);
      // valid time overlaps [validFrom, validTo): the staging claim ended when production began
      expect(await ids({ ...all, layers: ['semantic'], validFrom: t0 + 2 * DAY })).toEqual([production.id]);
      expect(await ids({ ...all, validTo: t0 })).toEqual([rule.id]);
      expect(await ids({ ...all, recordedFrom: t0 + DAY, recordedTo: t0 + 3 * DAY })).toEqual([tagged.id, production.id]);
      expect(await ids({ ...all, sort: 'importance' })).toEqual([production.id, rule.id, tagged.id, staging.id, gone.id]);
      expect(await ids({ ...all, sort: 'validFrom', order: 'asc' })).toEqual([rule.id, staging.id, production.id, tagged.id, gone.id]);
      await engram.store.recordAccess([tagged.id], clock.now());
      await engram.store.recordAccess([staging.id], clock.now() + 1);
      await engram.store.transaction(async () => undefined); // writes the batched accesses
      expect((await ids({ ...all, sort: 'accessedAt' })).slice(0, 2)).toEqual([staging.id, tagged.id]);
      expect((await ids({ ...all, sort: 'accessedAt', order: 'asc' })).slice(3)).toEqual([tagged.id, staging.id]);
      // items are the memory view
      const [item] = (await engram.list({ ...all, tag: 'pager' })).items;
      expect(item).toMatchObject({ id: tagged.id, scope: 't/f', layer: 'episodic', tags: ['Ops', 'pager'], status: 'active' });
      expect(item).not.toHaveProperty('embedding');
    });

    it('cursors refuse tampering and other lists; bad input names its field', async () => {
      const { engram } = await open();
      for (let i = 0; i < 5; i++) await engram.remember({ scope: 't/c', content: `note ${i}` });
      const first = await engram.list({ scopes: ['t/c'], limit: 2 });
      expect(first.nextCursor).toEqual(expect.stringMatching(/^[A-Za-z0-9_-]+$/));
      const cursor = first.nextCursor as string;
      const flipped = cursor.slice(0, 5) + (cursor[5] === 'A' ? 'B' : 'A') + cursor.slice(6);
      await expectInvalid(engram.list({ scopes: ['t/c'], cursor: flipped }), 'cursor', /not valid/);
      await expectInvalid(engram.list({ scopes: ['t/c'], cursor: 'not a cursor!' }), 'cursor');
      await expectInvalid(engram.list({ scopes: ['t/c'], cursor, sort: 'importance' }), 'cursor', /other filters/);
      await expectInvalid(engram.list({ scopes: ['t/c'], cursor, text: 'note' }), 'cursor', /other filters/);
      expect((await engram.list({ scopes: ['t/c'], limit: 2, cursor })).items).toHaveLength(2);
      await expectInvalid(engram.list({ scopes: ['t/c'], limit: 201 }), 'limit');
      await expectInvalid(engram.list({ scopes: ['t/c'], sort: 'size' as never }), 'sort');
      await expectInvalid(engram.list({ scopes: ['t/c'], statuses: ['gone' as never] }), 'statuses');
      await expectInvalid(engram.list({ scopes: ['t/c'], validFrom: 'yesterday' }), 'validFrom');
      await expectInvalid(engram.list({} as never), 'scopes');
      await expectInvalid(engram.list({ scopes: ['t/c'], tenant: 't' }), 'scopes');
    });

    it('scopes: counts of the selected scopes; a tenant sees only its own', async () => {
      const { engram } = await open();
      await engram.remember({ scope: 'acme/a', content: 'one' });
      await engram.remember({ scope: 'acme/a', layer: 'semantic', content: 'Bob likes tea.' });
      await engram.remember({ scope: 'acme/b/c', content: 'two' });
      await engram.remember({ scope: 'acme', content: 'root' });
      await engram.remember({ scope: 'acme-corp/x', content: 'a lookalike tenant' });
      await engram.remember({ scope: 'other/a', content: 'not yours' });
      const summaries = await engram.scopes({ tenant: 'acme' });
      expect(summaries.map((s) => s.scope)).toEqual(['acme', 'acme/a', 'acme/b/c']);
      expect(summaries[1]).toMatchObject({ scope: 'acme/a', total: 2, byLayer: { episodic: 1, semantic: 1 }, byStatus: { active: 2 } });
      expect((await engram.scopes({ allScopes: true })).map((s) => s.scope)).toEqual([
        'acme',
        'acme-corp/x',
        'acme/a',
        'acme/b/c',
        'other/a',
      ]);
      expect((await engram.scopes({ scopes: ['acme/a', 'empty/x'] })).map((s) => s.scope)).toEqual(['acme/a']);
      expect((await engram.list({ tenant: 'other' })).items.map((i) => i.content)).toEqual(['not yours']);
      expect((await engram.list({ tenant: 'nobody' })).items).toEqual([]);
      expect((await engram.list({ allScopes: true, limit: 200 })).items).toHaveLength(6);
    });

    it('purge removes a record, its chunks, edges and history from every read path, and audits without content', async () => {
      const { engram, clock, auditRows, everyRowText } = await open();
      const long = Array.from({ length: 60 }, (_, i) => `Paragraph ${i} of the incident report mentions ${TOKEN} and the failover.`).join(
        ' ',
      );
      const doc = await engram.remember({ scope: 't/p', content: long, tags: [TOKEN] });
      expect(doc.chunks?.length).toBeGreaterThan(1);
      const keep = await engram.remember({ scope: 't/p', layer: 'semantic', content: 'The failover region is eu-west.' });
      await engram.relate({ scope: 't/p', from: keep.id, type: 'RELATED_TO', to: doc.id });
      const claim = await engram.remember({ scope: 't/p', layer: 'semantic', content: 'The pager rotation is weekly.' });
      await engram.update(claim.id, { content: `The pager rotation is weekly, says ${TOKEN}.` }, { scope: 't/p' });
      await engram.update(claim.id, { content: 'The pager rotation is weekly (confirmed).' }, { scope: 't/p' });
      await engram.remember({ scope: 't/q', content: `Another scope keeps ${TOKEN}.` });
      clock.advance(MINUTE);
      expect(await everyRowText()).toContain(TOKEN);

      await expectInvalid(engram.purge({ scope: 't/p', ids: [doc.id] } as never), 'confirm', /confirm: true/);
      expect((await engram.get(doc.id, { scopes: ['t/p'] })).id).toBe(doc.id);

      const report = await engram.purge({ scope: 't/p', ids: [doc.id, claim.id, 'no-such-id'], confirm: true }, { actor: 'test-suite' });
      expect(report).toEqual({
        purged: 2,
        removed: {
          records: 2,
          chunks: doc.chunks!.length,
          edges: 1,
          refs: 0,
          statistics: 0,
          history: 2,
          indexEntries: 2 * (2 + doc.chunks!.length),
          states: 0,
        },
        restored: [],
        auditId: expect.any(String),
      });
      for (const id of [doc.id, claim.id, ...doc.chunks!]) {
        await expect(engram.get(id, { scopes: ['t/p'] })).rejects.toMatchObject({ code: 'NOT_FOUND' });
      }
      await expect(engram.history(claim.id, { scopes: ['t/p'] })).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect(
        (await engram.recall(`incident report ${TOKEN} failover`, { scopes: ['t/p'], includeSuperseded: true })).hits.map((h) => h.id),
      ).toEqual([keep.id]);
      expect(JSON.stringify(await engram.list({ scopes: ['t/p'], limit: 200 }))).not.toContain(TOKEN);
      expect((await engram.list({ scopes: ['t/p'], text: TOKEN })).items).toEqual([]);
      expect(JSON.stringify(await engram.exportMarkdown({ scope: 't/p' }))).not.toContain(TOKEN);
      expect((await engram.context({ scopes: ['t/p'], message: `what about ${TOKEN}?` })).markdown).not.toContain(TOKEN);
      expect(await engram.edges(keep.id, { scopes: ['t/p'] })).toEqual([]);
      // the other scope keeps its copy, and the rest of the store its other text
      expect((await engram.list({ scopes: ['t/q'], text: TOKEN })).items).toHaveLength(1);
      const text = await everyRowText();
      expect(text.split(TOKEN).length - 1).toBe(1);
      expect(text).toContain('The failover region is eu-west.');

      const audit = await auditRows();
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ actor: 'test-suite', action: 'purge', scope: 't/p', count: 2 });
      expect(JSON.parse(audit[0]!.details)).toMatchObject({ selector: 'ids', removed: report.removed, restored: 0 });
      expect(JSON.stringify(audit)).not.toContain(TOKEN);
      expect(JSON.stringify(audit)).not.toContain('incident');
    });

    it('purging a correction makes the claim it superseded current again', async () => {
      const { engram, clock, auditRows } = await open();
      const old = await engram.remember({ scope: 't/s', layer: 'semantic', content: 'The deploy target is staging.' });
      clock.advance(DAY);
      const fix = await engram.remember({
        scope: 't/s',
        layer: 'semantic',
        content: 'The deploy target moved from staging to production.',
      });
      expect(fix.action).toBe('superseded');
      const report = await engram.purge({ scope: 't/s', ids: [fix.id], confirm: true });
      expect(report.restored).toEqual([old.id]);
      expect(report.removed.edges).toBe(1);
      const restored = await engram.get(old.id, { scopes: ['t/s'] });
      expect(restored).toMatchObject({ status: 'active', validTo: null, invalidatedAt: null });
      expect(restored).not.toHaveProperty('supersededBy');
      expect((await engram.recall('deploy target', { scopes: ['t/s'] })).hits.map((h) => h.id)).toEqual([old.id]);
      expect((await engram.history(old.id, { scopes: ['t/s'] })).versions.map((v) => v.id)).toEqual([old.id]);
      expect(JSON.parse((await auditRows())[0]!.details)).toMatchObject({ restored: 1 });

      // a chain: purging the middle version leaves the oldest superseded (the newest still holds the slot)
      clock.advance(DAY);
      const second = await engram.remember({ scope: 't/s', layer: 'semantic', content: 'The deploy target moved from staging to canary.' });
      clock.advance(DAY);
      const third = await engram.remember({
        scope: 't/s',
        layer: 'semantic',
        content: 'The deploy target moved from canary to production.',
      });
      expect(third.superseded).toEqual([second.id]);
      expect((await engram.purge({ scope: 't/s', ids: [second.id], confirm: true })).restored).toEqual([]);
      expect((await engram.get(old.id, { scopes: ['t/s'] })).status).toBe('superseded');
    });

    it('purge takes the copies of purged text kept beside the records (an open question, a caution), and a text filter finds a past wording', async () => {
      const { engram } = await open();
      const M = 'qwvk5512marker';
      await engram.remember({
        scope: 't/f',
        capture: true,
        content: `assistant: Should I put ${M} on your medical card?`,
        source: { conversationId: 'c2', messageId: 'm1' },
      });
      expect((await engram.store.getState('t/f', 'capture/open-question/c2'))?.value).toMatchObject({
        question: expect.stringContaining(M),
      });
      await sixBadOutcomes(engram, 't/f', M);
      const { id: insurance } = await engram.remember({ scope: 't/f', layer: 'semantic', content: `The user's insurance id is ${M}-INS` });
      await engram.update(insurance, { content: 'The user has health insurance' }, { scope: 't/f' });
      const kept = await engram.remember({ scope: 't/f', layer: 'semantic', content: 'The user likes green tea' });
      await engram.consolidate({ scope: 't/f' });
      const statesWith = async () =>
        (await engram.store.listState('t/f', '', 500)).filter((e) => JSON.stringify(e.value).toLowerCase().includes(M)).map((e) => e.key);
      expect(await statesWith()).toEqual(expect.arrayContaining(['affect/cautions', 'capture/open-question/c2']));
      const cautioned = await engram.context({ scopes: ['t/f'], message: `Should I take ${M} today?`, budgetMs: 10_000 });
      expect(cautioned.markdown.toLowerCase()).toContain(`caution on ${M}`);

      // the updated claim's earlier wording names the marker: the filter finds it there
      expect((await engram.list({ scopes: ['t/f'], text: `${M}-ins` })).items.map((r) => r.id)).toEqual([insurance]);
      const report = await engram.purge({ scope: 't/f', filter: { text: M }, confirm: true });
      expect(report.removed.states).toBeGreaterThanOrEqual(2);
      expect(await statesWith()).toEqual([]);
      await expect(engram.get(insurance, { scopes: ['t/f'] })).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect((await engram.get(kept.id, { scopes: ['t/f'] }))?.status).toBe('active');
      const after = await engram.context({ scopes: ['t/f'], message: `Should I take ${M} today?`, budgetMs: 10_000 });
      expect(JSON.stringify({ ...after, message: '' }).toLowerCase()).not.toContain(M);
      const dump: string[] = [];
      for await (const line of engram.exportJsonl({ scopes: ['t/f'] })) dump.push(line);
      expect(dump.join('').toLowerCase()).not.toContain(M);
    });

    it('forgetting the last evidence of a caution forgets the caution (context no longer serves it); restoring it brings it back', async () => {
      const { engram } = await open();
      const M = 'qwvk5512marker';
      const ids = await sixBadOutcomes(engram, 't/c', M);
      await engram.consolidate({ scope: 't/c' });
      const cautions = async () =>
        (await engram.list({ scopes: ['t/c'], statuses: ['active'], limit: 200 })).items.filter((r) =>
          r.content.startsWith(`Caution on ${M}`),
        );
      const [caution] = await cautions();
      expect(caution).toBeDefined();
      const served = async () =>
        (await engram.context({ scopes: ['t/c'], message: `Should I take ${M} today?`, budgetMs: 10_000 })).markdown.toLowerCase();
      expect(await served()).toContain(`caution on ${M}`);
      // five of six forgotten: the caution still rests on the sixth
      for (const id of ids.slice(0, 5)) await engram.forget(id, { scope: 't/c' });
      expect(await cautions()).toHaveLength(1);
      await engram.forget(ids[5]!, { scope: 't/c' });
      expect(await cautions()).toEqual([]);
      expect((await engram.get(caution!.id, { scopes: ['t/c'] })).status).toBe('deleted');
      expect(await served()).not.toContain(`caution on ${M}`);
      expect((await engram.recall(`caution ${M}`, { scopes: ['t/c'] })).hits.map((h) => h.id)).not.toContain(caution!.id);
      await engram.restore(ids[5]!, { scope: 't/c' });
      expect((await engram.get(caution!.id, { scopes: ['t/c'] })).status).toBe('active');
      expect(await served()).toContain(`caution on ${M}`);
    });

    it('forgetting a correction makes what it superseded current again; restoring it supersedes that anew', async () => {
      const { engram } = await open();
      const scope = 't/fix';
      const old = await engram.remember({ scope, layer: 'semantic', content: 'I live in Lisbon.' });
      const fix = await engram.remember({ scope, layer: 'semantic', content: 'I live in Porto now.' });
      expect(fix.superseded).toEqual([old.id]);
      const status = async (id: string) => (await engram.get(id, { scopes: [scope] })).status;
      const current = async () =>
        (await engram.list({ scopes: [scope], statuses: ['active'], layers: ['semantic'], limit: 10 })).items.map((r) => r.content);
      await engram.forget(fix.id, { scope });
      expect(await status(old.id)).toBe('active');
      expect(await current()).toEqual(['I live in Lisbon.']);
      const [reinstated] = await engram.store.getMemories([old.id], [scope]);
      expect(reinstated!.validTo).toBeNull();
      expect(reinstated!.data.supersededBy).toBeUndefined();
      await engram.restore(fix.id, { scope });
      expect(await status(old.id)).toBe('superseded');
      expect(await current()).toEqual(['I live in Porto now.']);
      const [again] = await engram.store.getMemories([old.id], [scope]);
      expect(again!.data.supersededBy).toBe(fix.id);
      expect(again!.data.reinstatedFrom).toBeUndefined();
      // one live link between them, not two
      const links = (await engram.store.getEdges({ scopes: [scope], ids: [fix.id], types: ['SUPERSEDES'] })).filter(
        (e) => e.invalidatedAt === null && e.toId === old.id,
      );
      expect(links).toHaveLength(1);
    });

    it('a concept is forgotten with the last record naming it, comes back with any of them, and when a new record names it', async () => {
      const { engram } = await open();
      const scope = 't/n';
      const name = 'zorbanek quillfeather';
      const a = await engram.remember({ scope, content: 'I had lunch with Zorbanek Quillfeather at the bistro.' });
      const b = await engram.remember({ scope, content: 'Zorbanek Quillfeather said the bistro serves the best bacalhau.' });
      await engram.remember({ scope, content: 'The bistro was closed on Monday.' });
      await engram.processJobs();
      const [concept] = await engram.store.findConcepts({ scopes: [scope], names: ['zorbanek_quillfeather'] });
      expect(concept).toBeDefined();
      const listed = async () =>
        (await engram.list({ scopes: [scope], statuses: ['active'], limit: 100 })).items.some((r) => r.content === name);
      const status = async () => (await engram.get(concept!.id, { scopes: [scope] })).status;
      expect(await listed()).toBe(true);
      // one of the two that name it still stands
      await engram.forget(a.id, { scope });
      expect(await status()).toBe('active');
      await engram.forget(b.id, { scope });
      expect(await status()).toBe('deleted');
      expect(await listed()).toBe(false);
      expect((await engram.recall(name, { scopes: [scope] })).hits.map((h) => h.id)).not.toContain(concept!.id);
      // the first forgotten comes back: the name stands on it again
      await engram.restore(a.id, { scope });
      expect(await status()).toBe('active');
      const [stored] = await engram.store.getMemories([concept!.id], [scope]);
      expect(stored!.data).not.toHaveProperty('forgottenWith');
      // a new record naming it brings the same concept back, not a second one
      await engram.forget(a.id, { scope });
      expect(await status()).toBe('deleted');
      const c = await engram.remember({ scope, content: 'I met Zorbanek Quillfeather again at the market.' });
      await engram.processJobs();
      expect(await status()).toBe('active');
      const again = await engram.store.findConcepts({ scopes: [scope], names: ['zorbanek_quillfeather'], statuses: ['active', 'deleted'] });
      expect(again.map((r) => r.id)).toEqual([concept!.id]);
      expect((await engram.store.getConceptRefs({ scopes: [scope], conceptIds: [concept!.id] })).map((r) => r.refId)).toContain(c.id);
      // forgotten by the caller itself: restoring a record that names it leaves it forgotten
      await engram.forget(concept!.id, { scope });
      await engram.forget(c.id, { scope });
      await engram.restore(c.id, { scope });
      expect(await status()).toBe('deleted');
    });

    it('purge by filter or whole scope, never outside the scope; concepts whose every ref goes go too', async () => {
      const { engram, auditRows } = await open();
      await engram.remember(
        Array.from({ length: 3 }, (_, i) => ({
          scope: 't/g',
          layer: 'episodic' as const,
          content: `grasp the coffee mug, attempt ${i}`,
          perception: { objects: ['coffee_mug'] },
          action: { tool: 'grasp' },
          outcome: { success: true },
        })),
      );
      await engram.remember({ scope: 't/g', layer: 'semantic', content: 'Mugs are kept in the cupboard.', tags: ['kitchen'] });
      await engram.remember({ scope: 't/h', content: 'grasp the coffee mug elsewhere', tags: ['kitchen'] });
      await engram.processJobs();
      const [concept] = await engram.store.findConcepts({ scopes: ['t/g'], names: ['coffee_mug'] });
      expect(concept).toBeDefined();
      const report = await engram.purge({ scope: 't/g', filter: { text: 'coffee mug', layers: ['episodic'] }, confirm: true });
      expect(report.purged).toBe(3);
      expect(report.removed.refs).toBeGreaterThanOrEqual(3);
      await expect(engram.get(concept!.id, { scopes: ['t/g'] })).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect(report.removed.records).toBeGreaterThan(3);
      expect((await engram.list({ scopes: ['t/g'] })).items.map((i) => i.content)).toContain('Mugs are kept in the cupboard.');
      expect((await engram.list({ scopes: ['t/h'] })).items).toHaveLength(1);
      const whole = await engram.purge({ scope: 't/g', confirm: true });
      expect(whole.purged).toBeGreaterThan(0);
      expect((await engram.list({ scopes: ['t/g'] })).items).toEqual([]);
      expect((await engram.scopes({ allScopes: true })).map((s) => s.scope)).toEqual(['t/h']);
      const audit = await auditRows();
      expect(audit.map((a) => JSON.parse(a.details).selector)).toEqual(['filter', 'scope']);
      expect(JSON.parse(audit[0]!.details).filterFields).toEqual(['layers', 'text']);
      expect(JSON.stringify(audit)).not.toContain('coffee');
      await expectInvalid(engram.purge({ scope: 't/h', ids: ['x'], filter: {}, confirm: true }), 'ids');
      await expectInvalid(engram.purge({ ids: ['x'], confirm: true } as never), 'scope');
    });

    // 60 members: more than a reflection's provenance sample holds, so only its edges name the quoted one
    it.each([12, 60])(
      'a reflection that quotes a purged record goes with it (it holds its words); the evidence it rested on stays (%i members)',
      async (members) => {
        const { engram, everyRowText } = await open();
        const visits = Array.from({ length: members }, (_, i) => ({
          scope: 't/r',
          content: `Alice complained about the Porto office coffee machine again, visit ${i + 1}`,
          importance: 0.8,
        }));
        const [first] = await engram.remember(visits);
        const secret = await engram.remember({
          scope: 't/r',
          content: `Alice complained about the Porto office coffee machine and told me her diagnosis is ${TOKEN}`,
          importance: 0.9,
        });
        await engram.consolidate({ scope: 't/r', phases: ['reflect'] });
        const reflections = () => engram.list({ scopes: ['t/r'], layers: ['semantic'], text: 'Recurring theme' });
        const before = (await reflections()).items;
        expect(before.length).toBeGreaterThan(0);
        const quoting = before.filter((r) => r.content.includes(TOKEN));
        expect(quoting.length).toBeGreaterThan(0);

        const report = await engram.purge({ scope: 't/r', ids: [secret.id], confirm: true });
        expect(report.removed.records).toBeGreaterThanOrEqual(1 + quoting.length);
        for (const r of quoting) await expect(engram.get(r.id, { scopes: ['t/r'] })).rejects.toMatchObject({ code: 'NOT_FOUND' });
        expect((await engram.recall(`${TOKEN} diagnosis`, { scopes: ['t/r'], k: 5 })).hits.map((h) => h.content).join(' ')).not.toContain(
          TOKEN,
        );
        expect(await everyRowText()).not.toContain(TOKEN);
        // the evidence it rested on is untouched
        expect((await engram.get(first!.id, { scopes: ['t/r'] })).status).toBe('active');
      },
    );
  });
}
