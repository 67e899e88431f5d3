/**
 * Store contract, stored mentioned times: every record written is pending until `setMentions` stores
 * the times its text names; the store then hands them back with the record (`mentionsOf`); an edit of
 * its text or its write time makes it pending again; a store ignores what it stored under another version.
 * Registered by `runStoreContract` for the stores that keep them (both do).
 */
import { expect } from 'vitest';
import { mentionWindows, writtenAt } from '../../src/core/recall/mentioned-time.js';
import { makeRecord } from './store-fixtures.js';
import type { Store } from '../../src/core/ports/store.js';
import type { ContractContext } from './store-registry.contract.js';

const A = 'acme/a';
const B = 'acme/b';
const DAY = 86_400_000;
const WRITTEN = Date.parse('2024-05-09T10:00:00Z');

type MentionsMethods = 'pendingMentions' | 'setMentions' | 'mentionsOf' | 'countPendingMentions';

/** The store, with the methods that are optional in the port: both stores keep them, so one without fails the contract. */
function keepingMentions(store: Store): Store & Required<Pick<Store, MentionsMethods>> {
  const missing = (['pendingMentions', 'setMentions', 'mentionsOf', 'countPendingMentions'] as const).filter((m) => store[m] === undefined);
  if (missing.length > 0) throw new Error(`this store keeps no mentioned times (missing ${missing.join(', ')})`);
  return store as Store & Required<Pick<Store, MentionsMethods>>;
}

export function registerMentionsContract(ctx: ContractContext): void {
  const { test, insert } = ctx;

  test('stores the times a text names off the write path, and hands them back with the record', async () => {
    const store = keepingMentions(ctx.store());
    const [dated, plain, other] = await insert([
      makeRecord({ scope: A, content: 'Yesterday we hiked the ridge; next Friday we fly to Boston.', occurredAt: WRITTEN }),
      makeRecord({ scope: A, content: 'We talked about kayaks and coffee.', occurredAt: WRITTEN + DAY }),
      makeRecord({ scope: B, content: 'In March 2023 the office moved.', occurredAt: WRITTEN }),
    ]);
    const [before] = await store.getMemories([dated!.id], [A]);
    expect(store.mentionsOf(before!)).toBeUndefined();
    const pending = await store.pendingMentions({ scopes: 'all', limit: 10 });
    expect(new Set(pending.map((c) => c.id))).toEqual(new Set([dated!.id, plain!.id, other!.id]));
    const candidate = pending.find((c) => c.id === dated!.id)!;
    expect(candidate).toEqual({ id: dated!.id, scope: A, content: dated!.content, written: WRITTEN });
    expect((await store.pendingMentions({ scopes: 'all', limit: 1 })).length).toBe(1);
    expect((await store.pendingMentions({ scopes: [B], limit: 10 })).map((c) => c.id)).toEqual([other!.id]);
    // counted by scope, as `stats` reports them; reading with no scope is refused
    expect(await store.countPendingMentions([A])).toBe(2);
    expect(await store.countPendingMentions([A, B])).toBe(3);
    expect(await store.countPendingMentions(['acme/none'])).toBe(0);
    await expect(store.countPendingMentions([])).rejects.toThrow(/scope/i);

    const entries = pending.map((c) => ({ ...c, mentions: mentionWindows(c.content, c.written) }));
    expect(entries.find((e) => e.id === dated!.id)!.mentions.length).toBe(2);
    expect(entries.find((e) => e.id === plain!.id)!.mentions).toEqual([]);
    expect(await store.setMentions(entries)).toBe(3);
    expect(await store.pendingMentions({ scopes: 'all', limit: 10 })).toEqual([]);
    expect(await store.countPendingMentions([A, B])).toBe(0);
    // stored once: a second answer for the same records changes nothing
    expect(await store.setMentions(entries)).toBe(0);

    const [read, readPlain] = await store.getMemories([dated!.id, plain!.id], [A]);
    expect(store.mentionsOf(read!)).toEqual(mentionWindows(dated!.content, writtenAt(dated!)));
    expect(store.mentionsOf(readPlain!)).toEqual([]);
    // what the store holds for one record is not another's
    expect(store.mentionsOf(makeRecord({ scope: A }))).toBeUndefined();
  });

  test('stored mentioned times and the pending list survive close and reopen', async () => {
    const store = keepingMentions(ctx.store());
    const [done, waiting] = await insert([
      makeRecord({ scope: A, content: 'Three weeks ago the roof leaked.', occurredAt: WRITTEN }),
      makeRecord({ scope: A, content: 'Tomorrow the roofer comes.', occurredAt: WRITTEN }),
    ]);
    const mentions = mentionWindows(done!.content, WRITTEN);
    expect(await store.setMentions([{ id: done!.id, scope: A, content: done!.content, written: WRITTEN, mentions }])).toBe(1);
    const reopened = await ctx.reopen();
    const [again] = await reopened.getMemories([done!.id], [A]);
    expect(keepingMentions(reopened).mentionsOf(again!)).toEqual(mentions);
    expect((await keepingMentions(reopened).pendingMentions({ scopes: 'all', limit: 10 })).map((c) => c.id)).toEqual([waiting!.id]);
  });

  test('an edit of the text or of when it happened makes a record pending again; a stale answer is not stored', async () => {
    const store = keepingMentions(ctx.store());
    const [first, second] = await insert([
      makeRecord({ scope: A, content: 'Last week the build broke twice.', occurredAt: WRITTEN }),
      makeRecord({ scope: A, content: 'Two days ago the tests went green.', occurredAt: WRITTEN }),
    ]);
    const pending = await store.pendingMentions({ scopes: 'all', limit: 10 });
    const stale = pending.map((c) => ({ ...c, mentions: mentionWindows(c.content, c.written) }));
    await store.transaction(async (tx) => {
      await tx.updateMemory(first!.id, A, { content: 'Last month the build broke twice.', updatedAt: WRITTEN + DAY });
    });
    // the first record's text changed since it was read: only the second is stored
    expect(await store.setMentions(stale)).toBe(1);
    expect((await store.pendingMentions({ scopes: 'all', limit: 10 })).map((c) => c.id)).toEqual([first!.id]);

    await store.transaction(async (tx) => {
      await tx.updateMemory(second!.id, A, { occurredAt: WRITTEN - 10 * DAY, updatedAt: WRITTEN + DAY });
    });
    const [moved] = await store.getMemories([second!.id], [A]);
    expect(store.mentionsOf(moved!)).toBeUndefined();
    const again = await store.pendingMentions({ scopes: 'all', limit: 10 });
    expect(new Set(again.map((c) => c.id))).toEqual(new Set([first!.id, second!.id]));
    expect(again.find((c) => c.id === second!.id)!.written).toBe(WRITTEN - 10 * DAY);
    expect(await store.setMentions(again.map((c) => ({ ...c, mentions: mentionWindows(c.content, c.written) })))).toBe(2);
    const [edited] = await store.getMemories([first!.id], [A]);
    expect(store.mentionsOf(edited!)).toEqual(mentionWindows(edited!.content, WRITTEN));
  });
}
