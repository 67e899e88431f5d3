/**
 * Seed 001's maintenance surface and decision chains on planted data, through the library, on both
 * stores (SQLite temp file; PostgreSQL when ENGRAM_TEST_PG_URL is set): surface without a query, decay
 * dry run vs real run, expire to tombstones through the purge path, chains read whole and decaying on
 * the tier of their most important member (injected clock).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/ports/clock.js';
import { Engram } from '../../src/index.js';
import { freshPgSchema, pgTestUrl } from '../helpers/postgres.js';
import { tempEngram } from '../helpers/temp.js';

const SCOPE = 'acme/agent';
const OTHER = 'acme/other';
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 2, 1);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const STORES = [
  {
    name: 'sqlite',
    skip: false,
    open: async (clock: ManualClock): Promise<Engram> => {
      const t = await tempEngram({ clock });
      cleanups.push(t.cleanup);
      return t.engram;
    },
  },
  {
    name: 'postgres',
    skip: pgTestUrl() === undefined || process.env.STORES === 'sqlite',
    open: async (clock: ManualClock): Promise<Engram> => {
      const { url, drop } = freshPgSchema('maple');
      const engram = await Engram.open({ path: url, embedder: 'hash', clock });
      cleanups.push(async () => {
        await engram.close();
        await drop();
      });
      return engram;
    },
  },
];

for (const store of STORES) {
  describe.skipIf(store.skip)(`MAPLE maintenance (${store.name})`, () => {
    it('surface: a persona and a profile schema are settings of the scope, never surfaced (with or without a context)', async () => {
      const clock = new ManualClock(T0);
      const engram = await store.open(clock);
      await engram.setPersona({ scope: SCOPE, dispositions: { caution: 0.9 }, reason: 'a careful agent' });
      await engram.setProfileSchema({
        scope: SCOPE,
        fields: [{ name: 'budget range', description: 'what the user can spend', example: '80L' }],
      });
      const [fact] = await engram.remember([
        { scope: SCOPE, content: 'The billing database is PostgreSQL 15 on a replica pair.', importance: 0.5 },
        { scope: SCOPE, content: 'The billing outage was fixed by failing over.', importance: 0.4 },
      ]);
      clock.advance(DAY);
      const settings = (await engram.store.listMemories({ scopes: [SCOPE], layers: ['procedural'], limit: 10 })).map((r) => r.id);
      expect(settings).toHaveLength(2);
      for (const context of ['', 'billing outage', 'persona caution profile schema budget range']) {
        const { hits } = await engram.surface({ scopes: [SCOPE], context, limit: 10 });
        expect(hits.map((h) => h.id)).toContain(fact!.id);
        expect(hits.filter((h) => settings.includes(h.id))).toEqual([]);
      }
    });

    it('surface: importance and use rank without a query; a context lifts what it is about; each hit says why', async () => {
      const clock = new ManualClock(T0);
      const engram = await store.open(clock);
      const [minor, major, used, database] = await engram.remember([
        { scope: SCOPE, content: 'The office plant was watered.', importance: 0.2 },
        { scope: SCOPE, content: 'Production deploys need two approvals.', importance: 0.95, layer: 'semantic' },
        { scope: SCOPE, content: 'The staging cluster runs on spot instances.', importance: 0.4 },
        { scope: SCOPE, content: 'The billing database is PostgreSQL 15 on a replica pair.', importance: 0.5 },
      ]);
      await engram.remember({ scope: OTHER, content: 'Another scope: never surfaced here.', importance: 1 });
      clock.advance(DAY);
      for (let i = 0; i < 4; i++) await engram.store.recordAccess([used!.id], clock.now());
      await engram.store.transaction(async () => undefined); // accesses are batched: a write flushes them
      const plain = await engram.surface({ scopes: [SCOPE], limit: 3 });
      expect(plain.hits.map((h) => h.id)).toEqual([major!.id, used!.id, database!.id]);
      expect(plain.hits[1]!.why.activation).toBeGreaterThan(0.8);
      expect(plain.hits[0]!.why).toMatchObject({ importance: 0.95, relevance: null });
      expect(plain.hits.some((h) => h.id === minor!.id)).toBe(false);
      const about = await engram.surface({ scopes: [SCOPE], context: 'which database does billing use', limit: 2 });
      expect(about.hits[0]!.id).toBe(database!.id);
      expect(about.hits[0]!.why.relevance).toBeGreaterThan(0);
      // surfacing is not an access
      const [after] = await engram.store.getMemories([database!.id], [SCOPE]);
      expect(after!.accessCount).toBe(0);
      await expect(engram.surface({ scopes: [] as string[] })).rejects.toMatchObject({ code: 'INVALID_INPUT' });

      // a claim whose correction takes effect next month is still what holds now, and surfaces; once the
      // correction holds, the correction surfaces instead
      const staging = await engram.remember({ scope: OTHER, layer: 'semantic', content: 'The deploy target is staging.', importance: 0.9 });
      clock.advance(DAY);
      const production = await engram.remember({
        scope: OTHER,
        layer: 'semantic',
        content: 'The deploy target moved from staging to production.',
        importance: 0.9,
        validFrom: clock.now() + 30 * DAY,
      });
      expect(production.superseded).toEqual([staging.id]);
      const ids = async () => (await engram.surface({ scopes: [OTHER], limit: 5 })).hits.map((h) => h.id);
      expect(await ids()).toContain(staging.id);
      expect(await ids()).not.toContain(production.id);
      clock.advance(40 * DAY);
      expect(await ids()).toContain(production.id);
      expect(await ids()).not.toContain(staging.id);
    });

    it('decay: a dry run reports what the run then does; expire leaves content-free tombstones and an audit entry', async () => {
      const clock = new ManualClock(T0);
      const engram = await store.open(clock);
      const [idle, kept, pinned] = await engram.remember([
        {
          scope: SCOPE,
          content: 'Tried the blue mug; the handle was loose.',
          importance: 0.2,
          tags: ['mug'],
          perception: { objects: ['mug'] },
          action: { tool: 'grasp' },
        },
        { scope: SCOPE, content: 'The robot arm was recalibrated.', importance: 0.9 },
        { scope: SCOPE, content: 'Pinned: the emergency stop is red.', importance: 0.1, pinned: true },
      ]);
      const insight = await engram.remember({
        scope: SCOPE,
        layer: 'semantic',
        content: 'Loose mug handles need a two-finger grasp.',
        importance: 0.9,
        pinned: true,
        provenance: { kind: 'reflection', derivedFrom: [idle!.id] },
      });
      const [compressed] = await engram.remember([{ scope: SCOPE, content: 'An episode a summary stands for.', importance: 0.1 }]);
      await engram.store.transaction((tx) =>
        tx.updateMemory(compressed!.id, SCOPE, { status: 'expired', data: { compressedInto: insight.id }, updatedAt: T0 }),
      );
      await engram.consolidate({ scope: SCOPE, phases: ['extract'] });
      clock.set(T0 + 8 * DAY);
      const preview = await engram.decay({ scope: SCOPE, dryRun: true });
      expect(preview).toMatchObject({ name: 'decay', dryRun: true, runId: null, decayed: [idle!.id], counts: { decayed: 1, expired: 0 } });
      expect((await engram.get(idle!.id, { scopes: [SCOPE] })).status).toBe('active');
      const run = await engram.decay({ scope: SCOPE });
      expect(run).toMatchObject({ name: 'decay', dryRun: false, decayed: [idle!.id], counts: { decayed: 1, expired: 0 } });
      expect(run.runId).toEqual(expect.any(String));
      expect((await engram.get(idle!.id, { scopes: [SCOPE] })).status).toBe('decayed');
      expect((await engram.get(kept!.id, { scopes: [SCOPE] })).status).toBe('active');

      // not yet past the 30-day grace period: nothing to expire
      expect(await engram.expire({ scope: SCOPE, dryRun: true })).toMatchObject({ expired: 0, ids: [] });
      clock.set(T0 + 40 * DAY);
      const dry = await engram.expire({ scope: SCOPE, dryRun: true });
      expect(dry).toMatchObject({ dryRun: true, expired: 1, ids: [idle!.id], auditIds: [] });
      expect((await engram.get(idle!.id, { scopes: [SCOPE] })).content).toContain('blue mug');
      const done = await engram.expire({ scope: SCOPE });
      expect(done).toMatchObject({ dryRun: false, expired: 1, ids: [idle!.id] });
      expect(done.auditIds).toHaveLength(1);
      expect(done.removed.refs).toBeGreaterThan(0);
      const tombstone = await engram.get(idle!.id, { scopes: [SCOPE] });
      expect(tombstone).toMatchObject({
        id: idle!.id,
        scope: SCOPE,
        status: 'expired',
        content: '',
        tags: [],
        entities: [],
        summary: null,
        tombstone: true,
      });
      expect(tombstone.expiredAt).toBe(T0 + 40 * DAY);
      expect(tombstone.perception).toBeUndefined();
      const listed = await engram.list({ scopes: [SCOPE], statuses: ['expired'] });
      expect(listed.items.filter((i) => i.tombstone === true).map((i) => i.id)).toEqual([idle!.id]);
      expect(
        (await engram.recall('blue mug handle', { scopes: [SCOPE], includeSuperseded: true })).hits.some((h) => h.id === idle!.id),
      ).toBe(false);
      expect(await engram.store.findConceptsByRef({ scopes: [SCOPE], refIds: [idle!.id] })).toEqual([]);
      await expect(engram.restore(idle!.id, { scope: SCOPE })).rejects.toMatchObject({ code: 'CONFLICT' });
      // nothing brings a tombstone back: no edit, no forget (after which restore would not see it), no edge
      await expect(engram.update(idle!.id, { content: 'Back from the dead.' }, { scope: SCOPE })).rejects.toMatchObject({
        code: 'CONFLICT',
        message: expect.stringMatching(/expired for good.*cannot be edited/),
      });
      await expect(engram.forget(idle!.id, { scope: SCOPE })).rejects.toMatchObject({ code: 'CONFLICT' });
      await expect(engram.relate({ scope: SCOPE, from: kept!.id, type: 'RELATED_TO', to: idle!.id })).rejects.toMatchObject({
        code: 'CONFLICT',
      });
      expect(await engram.get(idle!.id, { scopes: [SCOPE] })).toMatchObject({ status: 'expired', content: '', tombstone: true });
      expect(await engram.edges(idle!.id, { scopes: [SCOPE] })).toEqual([]);
      // knowledge derived from it stays; an episode compression replaced is not expiry's to remove
      expect(await engram.get(insight.id, { scopes: [SCOPE] })).toMatchObject({
        status: 'active',
        content: 'Loose mug handles need a two-finger grasp.',
      });
      expect((await engram.get(compressed!.id, { scopes: [SCOPE] })).content).toBe('An episode a summary stands for.');
      // idempotent; pinned and important records stay
      expect(await engram.expire({ scope: SCOPE })).toMatchObject({ expired: 0 });
      expect((await engram.get(pinned!.id, { scopes: [SCOPE] })).content).toContain('emergency stop');
      expect((await engram.stats({ scopes: [SCOPE] })).byStatus.expired).toBe(2);
    });

    it('decision chains: written by remember and relate, read whole in order by recall and context, scope- and time-filtered', async () => {
      const clock = new ManualClock(T0);
      const engram = await store.open(clock);
      const rationale = await engram.remember({
        scope: SCOPE,
        content: 'We need joins across orders and invoices, and the team knows SQL.',
        occurredAt: T0 - 3 * DAY,
      });
      const decision = await engram.remember({
        scope: SCOPE,
        content: 'Decided to store orders in PostgreSQL.',
        occurredAt: T0 - 2 * DAY,
        decision: { intent: 'choose the orders database', rationale: 'joins and team skills' },
        rejected: ['MongoDB: no joins across collections', 'DynamoDB: vendor lock-in'],
      });
      expect(decision.rejected).toHaveLength(2);
      await engram.relate({ scope: SCOPE, from: rationale.id, type: 'DECIDED', to: decision.id });
      clock.advance(DAY);
      const outcome = await engram.remember({
        scope: SCOPE,
        content: 'The orders migration to PostgreSQL finished in two days.',
        occurredAt: T0 - DAY,
        follows: decision.id,
      });
      const followUp = await engram.remember({
        scope: SCOPE,
        content: 'Decided to add pgvector for order search.',
        occurredAt: T0,
        decision: { intent: 'add vector search' },
        follows: decision.id,
      });
      const unrelated = await engram.remember({ scope: SCOPE, content: 'Lunch was at noon.' });

      const { hits } = await engram.recall('orders database PostgreSQL', { scopes: [SCOPE], chains: true });
      const hit = hits.find((h) => h.id === decision.id);
      expect(hit?.chain?.map((m) => [m.id, m.role])).toEqual([
        [rationale.id, 'rationale'],
        [decision.id, 'decision'],
        [decision.rejected![0], 'rejected'],
        [decision.rejected![1], 'rejected'],
        [outcome.id, 'outcome'],
        [followUp.id, 'follow-up'],
      ]);
      expect(hit?.chain?.[1]).toMatchObject({ rationale: 'joins and team skills' });
      expect(hits.find((h) => h.id === unrelated.id)?.chain).toBeUndefined();
      expect((await engram.recall('orders database PostgreSQL', { scopes: [SCOPE] })).hits.every((h) => h.chain === undefined)).toBe(true);
      // a read of another scope sees none of it
      expect((await engram.recall('orders database PostgreSQL', { scopes: [OTHER], chains: true })).hits).toEqual([]);
      // knownAt before the outcome and follow-up were written: the chain as it was then
      const before = await engram.recall('orders database PostgreSQL', { scopes: [SCOPE], chains: true, knownAt: T0 });
      expect(before.hits.find((h) => h.id === decision.id)?.chain?.map((m) => m.id)).toEqual([
        rationale.id,
        decision.id,
        ...decision.rejected!,
      ]);

      const context = await engram.context({
        scopes: [SCOPE],
        message: 'why did we choose PostgreSQL for orders?',
        chains: true,
        budgetMs: 5_000,
      });
      expect(context.parts.chains?.items[0]?.members.map((m) => m.id)).toEqual([
        rationale.id,
        decision.id,
        ...decision.rejected!,
        outcome.id,
        followUp.id,
      ]);
      expect(context.markdown).toContain('## Decision chains');
      expect(context.markdown).toContain('rejected: MongoDB: no joins across collections');
      expect(
        (await engram.context({ scopes: [SCOPE], message: 'why did we choose PostgreSQL for orders?', budgetMs: 5_000 })).parts.chains,
      ).toBeUndefined();

      // a chain names only memories of its own scope: nothing is written
      const foreign = await engram.remember({ scope: OTHER, content: 'Elsewhere.' });
      await expect(engram.remember({ scope: SCOPE, content: 'Orphan outcome.', follows: foreign.id })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
      });
      expect((await engram.list({ scopes: [SCOPE], text: 'Orphan outcome' })).items).toEqual([]);
    });

    it("a chain's records decay on the tier of its most important member", async () => {
      const clock = new ManualClock(T0);
      const engram = await store.open(clock);
      const decision = await engram.remember({
        scope: SCOPE,
        content: 'Decided to freeze the public API for v2.',
        importance: 0.9,
        decision: { intent: 'freeze the API' },
        rejected: ['Keep changing the API weekly'],
      });
      const outcome = await engram.remember({
        scope: SCOPE,
        content: 'Client teams stopped filing breakage tickets.',
        importance: 0.2,
        follows: decision.id,
      });
      const loose = await engram.remember({ scope: SCOPE, content: 'A minor note outside any chain.', importance: 0.2 });
      clock.set(T0 + 8 * DAY);
      await engram.decay({ scope: SCOPE });
      const status = async (id: string) => (await engram.get(id, { scopes: [SCOPE] })).status;
      expect(await status(loose.id)).toBe('decayed');
      expect(await status(outcome.id)).toBe('active');
      expect(await status(decision.rejected![0]!)).toBe('active');
      clock.set(T0 + 31 * DAY);
      const report = await engram.decay({ scope: SCOPE });
      expect(new Set(report.decayed)).toEqual(new Set([decision.id, outcome.id, decision.rejected![0]]));
    });
  });
}
