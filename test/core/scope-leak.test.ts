/**
 * Randomised scope-leak probes: identical and similar texts in many scopes, every read path, from
 * every wrong scope. Any record of a scope a read did not name is a leak.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engram } from '../../src/index.js';
import { isEngramError } from '../../src/index.js';
import { tempEngram } from '../helpers/temp.js';

/** Small deterministic PRNG (mulberry32) so failures reproduce. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TENANTS = ['acme', 'globex', 'initech'];
const SUBJECTS = ['deploy target', 'coffee order', 'favourite colour', 'on-call rota', 'budget', 'office city'];
const VALUES = ['production', 'staging', 'blue', 'green', 'Berlin', 'Lisbon', '80L', 'Tuesday'];

describe('scope isolation under randomised probes', () => {
  let ctx: Awaited<ReturnType<typeof tempEngram>>;
  let engram: Engram;
  const scopes: string[] = [];
  const idsByScope = new Map<string, string[]>();
  const scopeOfId = new Map<string, string>();

  beforeAll(async () => {
    ctx = await tempEngram();
    engram = ctx.engram;
    const random = rng(42);
    for (const tenant of TENANTS) {
      scopes.push(`${tenant}/shared`);
      for (const user of ['alice', 'bob', 'carol']) scopes.push(`${tenant}/users/${user}`, `${tenant}/users/${user}/agents/coder`);
    }
    // Identical texts in every scope plus scope-specific variations.
    const inputs: { scope: string; content: string; layer: 'episodic' | 'semantic' }[] = [];
    for (const scope of scopes) {
      inputs.push({ scope, content: 'The deploy target is production and the on-call engineer is Dana.', layer: 'episodic' });
      for (let i = 0; i < 6; i += 1) {
        const subject = SUBJECTS[Math.floor(random() * SUBJECTS.length)] as string;
        const value = VALUES[Math.floor(random() * VALUES.length)] as string;
        inputs.push({
          scope,
          content: `In ${scope} the ${subject} is ${value} (note ${i}).`,
          layer: i % 2 === 0 ? 'semantic' : 'episodic',
        });
      }
    }
    const results = await engram.remember(inputs);
    results.forEach((result, index) => {
      const scope = (inputs[index] as { scope: string }).scope;
      idsByScope.set(scope, [...(idsByScope.get(scope) ?? []), result.id]);
      scopeOfId.set(result.id, scope);
    });
  });

  afterAll(async () => ctx.cleanup());

  it('1,000 probes across recall, get, stats, forget and restore leak nothing', async () => {
    const random = rng(7);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    let probes = 0;
    while (probes < 1000) {
      const readScopes = [...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(scopes)))];
      const allowed = new Set(readScopes);
      const kind = probes % 5;
      if (kind === 0 || kind === 1) {
        const query = pick(['deploy target production', 'coffee order', `${pick(SUBJECTS)} ${pick(VALUES)}`, 'Dana on-call', pick(scopes)]);
        const { hits } = await engram.recall(query, { scopes: readScopes, k: 20, trackAccess: false });
        for (const hit of hits) expect(allowed.has(hit.scope), `recall leaked ${hit.scope} into ${readScopes.join(',')}`).toBe(true);
      } else if (kind === 2) {
        const foreign = pick(scopes.filter((s) => !allowed.has(s)));
        const id = pick(idsByScope.get(foreign) as string[]);
        await expect(engram.get(id, { scopes: readScopes })).rejects.toSatisfy((e: unknown) => isEngramError(e) && e.code === 'NOT_FOUND');
      } else if (kind === 3) {
        const stats = await engram.stats({ scopes: readScopes });
        const expected = readScopes.reduce((sum, s) => sum + (idsByScope.get(s)?.length ?? 0), 0);
        expect(stats.total).toBe(expected);
      } else {
        const writeScope = pick(scopes);
        const foreign = pick(scopes.filter((s) => s !== writeScope));
        const id = pick(idsByScope.get(foreign) as string[]);
        const verb = random() < 0.5 ? 'forget' : 'restore';
        const [before] = await engram.store.getMemories([id], [foreign]);
        await expect(engram[verb](id, { scope: writeScope })).rejects.toSatisfy((e: unknown) => isEngramError(e) && e.code === 'NOT_FOUND');
        const [still] = await engram.store.getMemories([id], [foreign]);
        expect(still).toEqual(before);
      }
      probes += 1;
    }
    expect(probes).toBe(1000);
  });

  it('a read with no scope is an error, never "everything"', async () => {
    for (const scopes of [undefined, [], null]) {
      await expect(engram.recall('deploy', { scopes } as never)).rejects.toSatisfy(
        (e: unknown) => isEngramError(e) && e.code === 'INVALID_INPUT' && /scope/.test(e.message),
      );
      await expect(engram.stats({ scopes } as never)).rejects.toSatisfy((e: unknown) => isEngramError(e) && e.code === 'INVALID_INPUT');
    }
    await expect(engram.recall('deploy', undefined as never)).rejects.toSatisfy(
      (e: unknown) => isEngramError(e) && e.code === 'INVALID_INPUT',
    );
  });

  it('scope syntax is enforced: no dot segments, no empty segments, no wildcards', async () => {
    for (const scope of ['acme/../globex', 'acme/./x', '/acme', 'acme/', 'acme//x', 'acme/*', 'acme/%', '.hidden', '']) {
      await expect(engram.remember({ scope, content: 'x' })).rejects.toSatisfy(
        (e: unknown) => isEngramError(e) && e.code === 'INVALID_INPUT',
      );
      await expect(engram.recall('x', { scopes: [scope] })).rejects.toSatisfy(
        (e: unknown) => isEngramError(e) && e.code === 'INVALID_INPUT',
      );
    }
  });

  it('scopes match exactly: a parent scope does not see its children', async () => {
    const { hits } = await engram.recall('deploy target production Dana', { scopes: ['acme/users/alice'], k: 50, trackAccess: false });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.scope === 'acme/users/alice')).toBe(true);
  });
});
