/**
 * `capture: true` on the library: the episode keeps the raw turn, each claim-shaped sentence becomes a
 * semantic claim sourced from the turn, through dedup and supersession, in the episode's transaction.
 * Real SQLite store, the hash embedder (a real one, wrapped to fail on marked texts).
 */
import { describe, expect, it } from 'vitest';
import { EngramError, type Embedder, type Engram } from '../../../src/index.js';
import { HashEmbedder } from '../../../src/embeddings/hash/index.js';
import { enginesPerTest } from './engines.js';
import { PROJECT_FACTS } from '../../helpers/project-facts.js';

const SCOPE = 't/capture';

/** The hash embedder, answering a vector of the wrong length for texts marked [bad-vector] (the insert then fails). */
class FailingOnMark implements Embedder {
  readonly #inner = new HashEmbedder();
  readonly name = this.#inner.name;
  readonly dimension = this.#inner.dimension;
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const vectors = await this.#inner.embed(texts);
    return vectors.map((v, i) => (texts[i]?.includes('[bad-vector]') && !texts[i]?.startsWith('user:') ? v.subarray(0, 7) : v));
  }
}

const engines = enginesPerTest();
const open = (embedder?: Embedder): Promise<Engram> => engines.open(embedder !== undefined ? { embedder } : {});

const turn = (messageId: string, text: string, role = 'user') => ({
  scope: SCOPE,
  content: `${role}: ${text}`,
  capture: true,
  source: { system: 'test', conversationId: 'c1', messageId },
});

describe('remember with capture', () => {
  it('keeps the raw turn as an episode and adds one claim per claim-shaped sentence, sourced from the turn', async () => {
    const engram = await open();
    const result = await engram.remember(turn('m1', 'We use pnpm for this repo. Should we try bun at some point?'));
    expect(result.action).toBe('created');
    expect(result.claims).toHaveLength(1);
    const claim = result.claims?.[0];
    expect(claim?.action).toBe('created');
    const [episode] = await engram.store.getMemories([result.id], [SCOPE]);
    expect(episode?.layer).toBe('episodic');
    expect(episode?.content).toBe('user: We use pnpm for this repo. Should we try bun at some point?');
    const [stored] = await engram.store.getMemories([claim?.id ?? ''], [SCOPE]);
    expect(stored).toMatchObject({ layer: 'semantic', content: 'We use pnpm for this repo.', tags: ['captured', 'package manager'] });
    expect(stored?.provenance.sources).toEqual([{ system: 'test', conversationId: 'c1', messageId: 'm1' }]);
    expect(stored?.provenance.derivedFrom).toEqual([result.id]);
    expect(stored?.sourceKey).toBeNull();
  });

  it('supersedes and dedups captured claims like any claim', async () => {
    const engram = await open();
    const first = await engram.remember(turn('m1', 'We use pnpm for this repo.'));
    const pnpm = first.claims?.[0]?.id as string;
    const again = await engram.remember(turn('m2', 'Reminder: we use pnpm for this repo.'));
    expect(again.claims).toEqual([{ id: pnpm, action: 'merged' }]);
    const later = await engram.remember(turn('m3', 'We switched from pnpm to bun last week.'));
    expect(later.claims).toEqual([{ id: expect.any(String), action: 'superseded', superseded: [pnpm] }]);
    const [old] = await engram.store.getMemories([pnpm], [SCOPE]);
    expect(old?.status).toBe('superseded');
  });

  it('an unnamed switch replaces the tool of its kind however many other claims the scope holds', async () => {
    const engram = await open();
    const first = await engram.remember(turn('m1', 'We use pnpm for package management.'));
    const pnpm = first.claims?.[0]?.id as string;
    // more claims than the nearest neighbours a claim is compared with: some nearer to the switch by
    // wording, none sharing a word with the pnpm claim's kind
    const others = [
      'We hired two designers in March.',
      'We renamed the staging cluster in March.',
      'We archived the old wiki in March.',
      'We shipped the billing page in March.',
      'We ran the load test in March.',
      'We upgraded the office laptops in March.',
      'We welcomed Dana to the team in March.',
      ...PROJECT_FACTS,
      'Our staging bucket lives in eu-west-1.',
      'Weekly planning happens on Mondays.',
    ];
    for (const [i, text] of others.entries()) await engram.remember(turn(`o${i}`, text));
    const later = await engram.remember(turn('m2', 'We switched to bun last week.'));
    expect(later.claims).toEqual([{ id: expect.any(String), action: 'superseded', superseded: [pnpm] }]);
    const [old] = await engram.store.getMemories([pnpm], [SCOPE]);
    expect(old?.status).toBe('superseded');
    // and only the tool of its kind: Jest, Sentry and the rest stay current
    const current = await engram.list({ scopes: [SCOPE], layers: ['semantic'], statuses: ['active'] });
    expect(current.items.map((m) => m.content)).toEqual(
      expect.arrayContaining(['Our test runner is Jest.', 'We use Sentry for error tracking.']),
    );
  });

  it('reads nothing from assistant turns, questions or plans, and says so with an empty list', async () => {
    const engram = await open();
    const results = await engram.remember([
      turn('m1', 'I would recommend pnpm for a monorepo like this one.', 'assistant'),
      turn('m2', 'Maybe we should try Turborepo. Which package manager should I use?'),
    ]);
    expect(results.map((r) => r.claims)).toEqual([[], []]);
    expect(await engram.store.listMemories({ scopes: [SCOPE], layers: ['semantic'], limit: 10 })).toEqual([]);
  });

  it('a turn stored before is unchanged, and its claims are not read again', async () => {
    const engram = await open();
    await engram.remember(turn('m1', 'Our CI runs on GitHub Actions.'));
    const again = await engram.remember(turn('m1', 'Our CI runs on GitHub Actions.'));
    expect(again).toEqual({ id: expect.any(String), action: 'unchanged' });
    expect(await engram.store.listMemories({ scopes: [SCOPE], layers: ['semantic'], limit: 10 })).toHaveLength(1);
  });

  it('a failed write leaves the store as it was: no episode, no claim, no supersession', async () => {
    const engram = await open(new FailingOnMark());
    const first = await engram.remember(turn('m1', 'We use pnpm for this repo.'));
    await expect(
      engram.remember(turn('m2', 'We switched from pnpm to bun. The bun lockfile is tracked [bad-vector].')),
    ).rejects.toBeInstanceOf(EngramError);
    const all = await engram.store.listMemories({ scopes: [SCOPE], limit: 10, statuses: ['active', 'superseded'] });
    expect(all.map((r) => [r.content, r.status]).sort()).toEqual([
      ['We use pnpm for this repo.', 'active'],
      ['user: We use pnpm for this repo.', 'active'],
    ]);
    expect(all.find((r) => r.id === first.claims?.[0]?.id)?.status).toBe('active');
  });

  it('claims are read from the redacted turn: no secret reaches a claim', async () => {
    const engram = await open();
    const token = `ghp_${'a1B2c3D4e5'.repeat(4).slice(0, 36)}`;
    const result = await engram.remember(turn('m1', `Our deploy token is ${token} and we deploy with GitHub Actions.`));
    const stored = await engram.store.listMemories({ scopes: [SCOPE], limit: 10 });
    expect(result.claims?.length).toBeGreaterThan(0);
    expect(stored.some((r) => r.content.includes(token))).toBe(false);
  });

  it('reads at most 20 claims from one turn', async () => {
    const engram = await open();
    const text = Array.from({ length: 30 }, (_, i) => `Service ${i} is owned by team ${i}.`).join(' ');
    const result = await engram.remember(turn('m1', text));
    expect(result.claims).toHaveLength(20);
  });

  it('refuses capture on a layer other than episodes, saying how to fix it', async () => {
    const engram = await open();
    await expect(engram.remember({ scope: SCOPE, content: 'We use pnpm.', layer: 'semantic', capture: true })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('drop "layer" or set it to "episodic"'),
    });
  });
});
